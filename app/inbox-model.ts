import type { FieldDefinition, Folder, SpamReason, Submission } from './model.ts';

/**
 * What an inbox row says of a submission (docs/dashboard.md#the-inbox): who
 * sent it and two or three of its answers, short; and the words of its
 * spam reason, its counts and its triage notices.
 */

export interface Sender {
  name?: string;
  email?: string;
}

/** Answers the row reads: the field-check report is not one, nor an empty answer. */
function answered(data: Record<string, string>): [string, string][] {
  return Object.entries(data).filter(([name, value]) => name !== '_invalid' && value.trim());
}

const EMAIL_NAME = /^e-?mail|e-?mail$/i;
const FULL_NAME = /^(full[\s_-]?name|your[\s_-]?name|name)$/i;
const FIRST_NAME = /^(first[\s_-]?name|fname|given[\s_-]?name)$/i;
const LAST_NAME = /^(last[\s_-]?name|lname|surname|family[\s_-]?name)$/i;

/**
 * The sender: the form's email field (else an answer named like email) and
 * a name answer (a full name, else first and last joined, else any answer
 * named like a name). Either may be missing.
 */
export function senderOf(data: Record<string, string>, fields: FieldDefinition[] | null): Sender {
  const answers = answered(data);
  const value = (name: string) => answers.find(([each]) => each === name)?.[1]?.trim();
  const named = (pattern: RegExp) => answers.find(([name]) => pattern.test(name))?.[1]?.trim();
  const emailFields = (fields ?? []).filter((field) => field.type === 'email');
  const email =
    emailFields.map((field) => value(field.id)).find((answer) => answer) ?? named(EMAIL_NAME);
  const labelled = (fields ?? []).find(
    (field) => field.type === 'text' && FULL_NAME.test(field.label ?? ''),
  );
  const first = named(FIRST_NAME);
  const last = named(LAST_NAME);
  const name =
    (labelled && value(labelled.id)) ??
    named(FULL_NAME) ??
    ([first, last].filter(Boolean).join(' ') || undefined) ??
    named(/name/i);
  return { name, email };
}

/** The names of the answers `senderOf` used, so the row does not say them twice. */
function senderNames(data: Record<string, string>, sender: Sender): Set<string> {
  return new Set(
    answered(data)
      .filter(([name, value]) => {
        const trimmed = value.trim();
        if (trimmed === sender.email || trimmed === sender.name) return true;
        return /name/i.test(name) && (sender.name?.includes(trimmed) ?? false);
      })
      .map(([name]) => name),
  );
}

/** At most `max` characters (code points), white space folded, `…` as the last when cut. */
export function shortened(text: string, max: number): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  const points = [...folded];
  return points.length <= max
    ? folded
    : `${points
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

export const ANSWERS_SHOWN = 3;
export const ANSWER_LENGTH = 60;
/** A label longer than this is cut: the answer, not the question, is what the row is for. */
export const LABEL_LENGTH = 40;

/** An answer name without a field, in words: `guest_count` reads "Guest count". */
export function nameWords(name: string): string {
  const spaced = name.replace(/[_-]+/g, ' ').trim() || name;
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

const NUMBER = /^[+-]?\d+(?:[.,]\d+)?$/;

/**
 * One answer as a row says it: what it answers, then the answer ("Coming:
 * Yes", a number after its label without a colon: "Score 3", "Guests 1"),
 * so a survey's row reads without its form beside it. A long text (a
 * textarea field's, or without a field one over the row's length or of
 * several lines) speaks for itself and stands alone, as a message does.
 */
export function answerWords(
  name: string,
  value: string,
  field: Pick<FieldDefinition, 'id' | 'type' | 'label'> | undefined,
): string {
  const long = field
    ? field.type === 'textarea'
    : /[\r\n]/.test(value.trim()) || [...value.trim()].length > ANSWER_LENGTH;
  if (long) return shortened(value, ANSWER_LENGTH);
  const answer = field?.type === 'checkbox' && value.trim() === 'on' ? 'Ticked' : value;
  const label = shortened(field ? field.label?.trim() || field.id : nameWords(name), LABEL_LENGTH);
  const numeric =
    field?.type === 'number' || field?.type === 'rating' || NUMBER.test(answer.trim());
  const joiner = numeric || /[?:]$/.test(label) ? ' ' : ': ';
  return `${label}${joiner}${shortened(answer, ANSWER_LENGTH)}`;
}

/**
 * Up to three answers besides the sender's, each short and saying what it
 * answers (`answerWords`): in the form's field order, then the others; a
 * form without fields (its answers come in no kept order) shows the
 * longest first, as the list's preview does.
 */
export function chosenAnswers(
  data: Record<string, string>,
  fields: FieldDefinition[] | null,
  sender: Sender,
): string[] {
  const skip = senderNames(data, sender);
  const answers = answered(data).filter(([name]) => !skip.has(name));
  const order = new Map((fields ?? []).map((field, index) => [field.id, index]));
  const byId = new Map((fields ?? []).map((field) => [field.id, field]));
  const sorted = order.size
    ? answers.sort(([a], [b]) => (order.get(a) ?? order.size) - (order.get(b) ?? order.size))
    : answers.sort(([, a], [, b]) => b.length - a.length);
  return sorted
    .slice(0, ANSWERS_SHOWN)
    .map(([name, value]) => answerWords(name, value, byId.get(name)));
}

/** The row's summary, in words: the sender, then the chosen answers. */
export interface RowSummary {
  sender: Sender;
  answers: string[];
}

export function rowSummary(
  submission: Pick<Submission, 'data'>,
  fields: FieldDefinition[] | null,
): RowSummary {
  const sender = senderOf(submission.data, fields);
  return { sender, answers: chosenAnswers(submission.data, fields, sender) };
}

/** A row in a line of words: who sent it, and what (its answers joined, or that there are none). */
export function rowWords(
  submission: Pick<Submission, 'data'>,
  fields: FieldDefinition[] | null,
): RowSummary & { who: string; what: string } {
  const { sender, answers } = rowSummary(submission, fields);
  const who = [sender.name, sender.email].filter(Boolean).join(', ');
  const what = answers.join(' · ') || (who ? '(no other answers)' : '(no answers)');
  return { sender, answers, who, what };
}

/** A row's name for its controls: "Ada, ada@example.com: Question", or its answers alone. */
export const rowName = (words: { who: string; what: string }) =>
  words.who ? `${words.who}: ${words.what}` : words.what;

/** A spam reason as the chip says it (docs/submissions.md#spam-reasons). */
export const SPAM_REASON_WORDS: Record<NonNullable<Submission['spamReason']>, string> = {
  links: 'Links',
  duplicate: 'Duplicate',
  moved: 'Moved by you',
  duplicate_person: 'Already answered',
};

/** The spam folder's narrowings by reason, as their links say them (undefined: any reason). */
export const SPAM_REASON_FILTERS: readonly (readonly [SpamReason | undefined, string])[] = [
  [undefined, 'Any reason'],
  ['duplicate', 'Duplicates'],
  ['duplicate_person', 'Already answered'],
  ['links', 'Links'],
  ['moved', 'Moved by you'],
];

export const FOLDER_NAMES: Record<Folder, string> = {
  all: 'All',
  unread: 'Unread',
  starred: 'Starred',
  spam: 'Spam',
  pending: 'Waiting for confirmation',
};

export const submissions = (count: number) =>
  `${count.toLocaleString()} ${count === 1 ? 'submission' : 'submissions'}`;

/** What a triage change did, as its notice says it. */
export type Change = { read?: boolean; starred?: boolean; isSpam?: boolean };

export function changedWords(count: number, change: Change): string {
  const did =
    change.isSpam === true
      ? 'moved to spam'
      : change.isSpam === false
        ? 'moved out of spam'
        : change.read === true
          ? 'marked read'
          : change.read === false
            ? 'marked unread'
            : change.starred === true
              ? 'starred'
              : change.starred === false
                ? 'unstarred'
                : 'changed';
  return `${submissions(count)} ${did}`;
}

/**
 * The change that undoes `flags` on `ids`: the opposite flag on those of
 * `items` that did not hold it already (a star on a starred row changed
 * nothing, so its undo must not unstar it). Undefined when the change is
 * of several flags or of none, or moved nothing of this list.
 */
export function undoOf(
  items: readonly Pick<Submission, 'id' | 'read' | 'starred' | 'isSpam'>[],
  ids: readonly string[],
  flags: Change,
): { ids: string[]; flags: Change } | undefined {
  const set = Object.entries(flags).filter(([, value]) => value !== undefined) as [
    keyof Change,
    boolean,
  ][];
  if (set.length !== 1) return undefined;
  const [flag, value] = set[0]!;
  const chosen = new Set(ids);
  const moved = items.filter((item) => chosen.has(item.id) && item[flag] !== value);
  return moved.length > 0
    ? { ids: moved.map((item) => item.id), flags: { [flag]: !value } }
    : undefined;
}

/**
 * What a search's count counted: matches in the folder searched, with
 * whether spam is among them (docs/dashboard.md#counts).
 */
export function matchesWords(count: number, folder: Folder, q: string): string {
  const kind = folder === 'unread' || folder === 'starred' ? `${folder} ` : '';
  const matches = `${count.toLocaleString()} ${kind}${count === 1 ? 'match' : 'matches'} for “${q}”`;
  return folder === 'spam' ? `${matches} in spam` : `${matches}, spam not included`;
}
