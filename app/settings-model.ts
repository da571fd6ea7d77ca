import { isCountryCode } from '#domain/country-codes.ts';
import { placeholdersIn } from '#domain/email-placeholders.ts';
import { PRO_SETTINGS } from '#domain/form-gating.ts';
import type { FormType } from '#domain/form-model.ts';
import { type FormUpdate, formUpdateInput } from '#domain/form-update-input.ts';
import { FORM_TYPE_WORDS, FORM_TYPES } from './form-types.ts';
import type { Form } from './model.ts';
import { entriesOf, fromApi, lowerFirst, plainWords, type RawIssue } from './problem-sentences.ts';

export { entriesOf } from './problem-sentences.ts';

/**
 * The settings screen's model: every setting of `PATCH /v1/forms/{id}`
 * except `fields` and `design` (their own screens), grouped as the owner
 * thinks of them, each with the kind of control that edits it. Values are
 * kept as the controls hold them (strings and booleans) and turned into
 * the API's types on save; the route's own schema checks them first.
 */

export type Kind =
  | 'text'
  | 'textarea'
  | 'email'
  | 'url'
  | 'number'
  | 'checkbox'
  | 'select'
  | 'lines'
  | 'countries'
  | 'recipients'
  | 'datetime'
  | 'secret'
  /** A tick that names one of the form's email fields when on (`unique`): the field's id, or ''. */
  | 'personField';

/** Kinds whose value is a list: a refused entry is named by its line (or its row). */
const LISTS: readonly Kind[] = ['lines', 'countries', 'recipients'];

export interface Setting {
  key: SettingKey;
  label: string;
  /** Its name in the error summary, when the label is long. */
  short?: string;
  kind: Kind;
  hint?: string;
  /** A hint that depends on the value chosen (a form type's description). */
  describe?: (value: string) => string | undefined;
  options?: readonly (readonly [string, string])[];
  /** Empty means "none" (null), not "empty text". */
  nullable?: boolean;
  /** Takes email placeholders: the screen lists them beside it, each insertable. */
  placeholders?: boolean;
  /** A list's items, in words ("addresses"), for the bounds of the list itself. */
  entries?: string;
  /** What a refused item of a list is not ("is not an IP address or range"). */
  entryProblem?: string;
}

/** A key of the PATCH body (the write-only captcha secret too): never `fields` or `design`. */
export type SettingKey = Exclude<keyof FormUpdate, 'fields' | 'design'>;

export interface Group {
  /** The section's anchor, for the index at the top of the screen. */
  id: string;
  title: string;
  settings: readonly Setting[];
}

/** Addresses the notification goes to besides the first (the API's bound). */
export { MAX_NOTIFY_CC } from '#domain/form-update-input.ts';

export const GROUPS: readonly Group[] = [
  {
    id: 'settings-general',
    title: 'General',
    settings: [
      { key: 'name', label: 'Name', kind: 'text' },
      { key: 'emoji', label: 'Emoji', kind: 'text', nullable: true },
      {
        key: 'type',
        label: 'Form type (picks the summary)',
        short: 'Form type',
        kind: 'select',
        options: FORM_TYPES.map((type) => [type, FORM_TYPE_WORDS[type].label]),
        describe: (type) => FORM_TYPE_WORDS[type as FormType]?.description,
      },
    ],
  },
  {
    id: 'settings-notifications',
    title: 'Notifications',
    settings: [
      { key: 'notifyEnabled', label: 'Email me each submission', kind: 'checkbox' },
      {
        key: 'notifyEmail',
        label: 'Send them to',
        short: 'Send them to',
        kind: 'email',
        nullable: true,
        hint: 'Empty: the team owner.',
      },
      {
        key: 'notifyCc',
        label: 'Also send them to',
        kind: 'recipients',
        entries: 'more addresses',
        entryProblem: 'is not an email address',
        hint: 'Up to 4 more people, so 5 in all. One email goes to all of them: each sees the others’ addresses.',
      },
      { key: 'notifySubject', label: 'Subject', kind: 'text', placeholders: true },
      { key: 'notifyFromName', label: 'Sender name', kind: 'text' },
    ],
  },
  {
    id: 'settings-auto-reply',
    title: 'Auto-reply',
    settings: [
      { key: 'autoreplyEnabled', label: 'Reply to the submitter', kind: 'checkbox' },
      {
        key: 'autoreplySubject',
        label: 'Reply subject',
        kind: 'text',
        nullable: true,
        placeholders: true,
      },
      {
        key: 'autoreplyBody',
        label: 'Reply text',
        kind: 'textarea',
        nullable: true,
        placeholders: true,
      },
      {
        key: 'autoreplyAnswerPlaceholders',
        label: 'Let answers fill placeholders in the reply',
        kind: 'checkbox',
        hint:
          'On: each {{field.…}} in the reply subject and text is replaced by what the visitor typed in that field. ' +
          'Off: they are left empty, and the reply is sent without them. ' +
          'The visitor also chooses the address the reply goes to, so with this on, anyone can have a mail with words of their choosing sent in your name to anyone.',
      },
      { key: 'autoreplyHourlyLimit', label: 'Replies an hour, at most', kind: 'number' },
    ],
  },
  {
    id: 'settings-after-submitting',
    title: 'After submitting',
    settings: [
      {
        key: 'completionMode',
        label: 'Show',
        kind: 'select',
        options: [
          ['default', 'The default thank-you page'],
          ['message', 'My own message'],
          ['redirect', 'Go to my page'],
        ],
      },
      { key: 'completionTitle', label: 'Message title', kind: 'text', nullable: true },
      { key: 'completionMessage', label: 'Message', kind: 'textarea', nullable: true },
      { key: 'redirectUrl', label: 'Page to go to', kind: 'url', nullable: true },
    ],
  },
  {
    id: 'settings-closing',
    title: 'Closing',
    settings: [
      {
        key: 'status',
        label: 'Accepting submissions',
        kind: 'select',
        options: [
          ['active', 'Open'],
          ['paused', 'Paused'],
        ],
      },
      {
        key: 'maxSubmissions',
        label: 'Close after this many submissions',
        kind: 'number',
        nullable: true,
      },
      { key: 'autoCloseAt', label: 'Close at', kind: 'datetime', nullable: true },
      {
        key: 'closedMessage',
        label: 'Message when closed',
        kind: 'textarea',
        nullable: true,
      },
    ],
  },
  {
    id: 'settings-spam-and-security',
    title: 'Spam and security',
    settings: [
      {
        key: 'markDuplicates',
        label: 'Send duplicates to spam',
        kind: 'checkbox',
        hint: 'A duplicate is the same answers from the same visitor (address and browser) within 24 hours. Different people giving the same answers are never duplicates. Turn it off for a survey people may answer twice on purpose.',
      },
      {
        key: 'unique',
        label: 'One answer per email address',
        kind: 'personField',
        nullable: true,
        hint: 'A second answer from an address that has answered (however it is spelled: capitals, +tags, Gmail’s dots) still sees the thank-you page, but goes to spam as “Already answered”, unsent and uncounted.',
      },
      {
        key: 'confirmEmail',
        label: 'Ask people to confirm their email',
        kind: 'personField',
        nullable: true,
        hint: 'Each visitor gets an email with a link to press; their answer is sent on and counted (in the inbox, the form’s limit and the summary) only once they confirm, which their link lets them do for 48 hours.',
      },
      {
        key: 'allowedOrigins',
        label: 'Websites allowed to post (one a line; none: any)',
        short: 'Websites allowed to post',
        kind: 'lines',
        entries: 'websites',
        entryProblem: 'is not a website address (such as https://www.example.com)',
      },
      {
        key: 'blockedIps',
        label: 'Blocked IP addresses or ranges (one a line)',
        short: 'Blocked IP ranges',
        kind: 'lines',
        entries: 'addresses and ranges',
        entryProblem: 'is not an IP address or range (such as 203.0.113.0/24)',
      },
      {
        key: 'blockedCountries',
        label: 'Blocked countries (one a line)',
        short: 'Blocked countries',
        kind: 'countries',
        hint: 'A country’s name or its two-letter code, such as Germany or DE.',
        entries: 'countries',
        entryProblem: 'is not a country name or code',
      },
      { key: 'captchaEnabled', label: 'Ask for a Turnstile captcha', kind: 'checkbox' },
      { key: 'captchaSiteKey', label: 'Turnstile site key', kind: 'text', nullable: true },
      { key: 'captchaSecretKey', label: 'Turnstile secret key', kind: 'secret', nullable: true },
    ],
  },
  {
    id: 'settings-uploads',
    title: 'Uploads',
    settings: [
      { key: 'allowUploads', label: 'Accept files', kind: 'checkbox' },
      { key: 'uploadLimitMb', label: 'Largest file (MB)', kind: 'number' },
    ],
  },
  {
    id: 'settings-privacy',
    title: 'Privacy',
    settings: [
      { key: 'dontStoreIp', label: "Don't keep submitters' IP addresses", kind: 'checkbox' },
      {
        key: 'retentionDays',
        label: 'Keep submissions for (days)',
        kind: 'number',
        nullable: true,
        hint: 'Empty: kept until you delete them. 1 to 3,650: older ones leave the inbox, search and exports at once and are deleted with their files within 12 hours; changing it applies to those already here.',
      },
    ],
  },
];

/** What a control holds: text, a tick, or the rows of a list of addresses. */
export type Value = string | boolean | readonly string[];
export type Draft = Record<string, Value>;

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` value in this browser's zone. */
export function toLocalInput(iso: string): string {
  const at = new Date(iso);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

let regionNames: Intl.DisplayNames | undefined;
/** A country's name in the browser's language ("Germany"), or undefined when it has none. */
export function countryName(code: string): string | undefined {
  regionNames ??= new Intl.DisplayNames(undefined, { type: 'region' });
  const name = regionNames.of(code);
  return name && name !== code ? name : undefined;
}

/** How a blocked country shows: its name with its code, so both can be read and typed. */
export const countryLine = (code: string) => {
  const name = countryName(code);
  return name ? `${name} (${code})` : code;
};

let codesByName: Map<string, string> | undefined;
/** The code of a line as shown or typed: "Germany (DE)", "de" or "germany"; else the line. */
export function countryCode(line: string): string {
  const shown = /\(([A-Za-z]{2})\)$/.exec(line);
  if (shown) return shown[1]!.toUpperCase();
  if (/^[A-Za-z]{2}$/.test(line)) return line.toUpperCase();
  if (!codesByName) {
    codesByName = new Map();
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (const a of letters)
      for (const b of letters) {
        const name = isCountryCode(a + b) ? countryName(a + b) : undefined;
        if (name) codesByName.set(name.toLowerCase(), a + b);
      }
  }
  // Not a name: sent as typed, so the route's own check refuses it at its line.
  return codesByName.get(line.toLowerCase()) ?? line;
}

/** What each control shows for the form as saved. */
export function draftOf(form: Form, group: Group): Draft {
  const draft: Draft = {};
  for (const setting of group.settings) {
    const value = (form as Record<string, unknown>)[setting.key];
    const list = (value as string[] | undefined) ?? [];
    if (setting.kind === 'checkbox') draft[setting.key] = value === true;
    else if (setting.kind === 'lines') draft[setting.key] = list.join('\n');
    else if (setting.kind === 'countries') draft[setting.key] = list.map(countryLine).join('\n');
    else if (setting.kind === 'recipients') draft[setting.key] = [...list];
    else if (setting.kind === 'datetime')
      draft[setting.key] = value ? toLocalInput(value as string) : '';
    else if (setting.kind === 'secret') draft[setting.key] = '';
    else if (setting.kind === 'personField')
      draft[setting.key] = (value as { field?: string } | null | undefined)?.field ?? '';
    else draft[setting.key] = value === null || value === undefined ? '' : String(value);
  }
  return draft;
}

/** The API value of one control's content. */
function apiValue(setting: Setting, value: Value): unknown {
  if (setting.kind === 'checkbox') return value;
  if (setting.kind === 'personField') return value === '' ? null : { field: value };
  if (setting.kind === 'lines' || setting.kind === 'recipients')
    return entriesOf(value).map((entry) => entry.text);
  if (setting.kind === 'countries') return entriesOf(value).map((entry) => countryCode(entry.text));
  const text = value as string;
  if (text.trim() === '' && setting.nullable) return null;
  if (setting.kind === 'number') return text.trim() === '' ? Number.NaN : Number(text);
  // A datetime-local value is this browser's wall clock: sent as the instant it names.
  if (setting.kind === 'datetime') return new Date(text).toISOString();
  return text;
}

/**
 * Whether a control holds what was saved. A list compares its entries, so a
 * blank line or row, or spaces around an entry, are no change: they are never sent.
 */
const unchanged = (setting: Setting, now: Value | undefined, saved: Value | undefined) => {
  const comparable = (value: Value | undefined) =>
    LISTS.includes(setting.kind) ? entriesOf(value ?? '').map((entry) => entry.text) : value;
  return JSON.stringify(comparable(now)) === JSON.stringify(comparable(saved));
};

/** The id of a setting's control (a list of addresses: of its row, from 0). */
export const controlId = (key: string, row?: number) =>
  row === undefined ? `setting-${key}` : `setting-${key}-${row}`;

/** One refused value: where it is, what to say there, and what the summary says. */
export interface Problem {
  key: string;
  /** The element the summary's link focuses. */
  control: string;
  /** Said at the control (the group's summary says `summary`). */
  text: string;
  summary: string;
  /** The refused line of a list (from 1). */
  line?: number;
}

/** A refusal of the group's values in words, at the control (and line) it is about. */
export function problemOf(group: Group, draft: Draft, issue: RawIssue): Problem {
  const [key, index] = issue.path;
  const setting = group.settings.find((each) => each.key === key);
  if (!setting) {
    // A rule across settings that names one of another group: said, linked to the first control.
    const text = plainWords(issue);
    return {
      key: String(key ?? ''),
      control: controlId(group.settings[0]!.key),
      text,
      summary: text,
    };
  }
  const name = setting.short ?? setting.label;
  const words = plainWords(issue, setting.entries);
  const entry = typeof index === 'number' ? entriesOf(draft[setting.key] ?? '')[index] : undefined;
  if (!LISTS.includes(setting.kind) || !entry) {
    // A list of addresses as a whole: its first row, or its Add button when it has none.
    const rows = (draft[setting.key] as readonly string[] | undefined)?.length ?? 0;
    const control =
      setting.kind !== 'recipients'
        ? controlId(setting.key)
        : rows > 0
          ? controlId(setting.key, 0)
          : `${controlId(setting.key)}-add`;
    return { key: setting.key, control, text: words, summary: `${name}: ${lowerFirst(words)}` };
  }
  // An entry refused by its own check: what it is not; by a bound (too long): the bound.
  const what =
    issue.code === 'custom' || issue.code === 'invalid_format'
      ? (setting.entryProblem ?? lowerFirst(words))
      : lowerFirst(words);
  const said = `“${entry.text}” ${what}`;
  if (setting.kind === 'recipients') {
    return {
      key: setting.key,
      control: controlId(setting.key, entry.line - 1),
      text: `Address ${entry.line}: ${said}`,
      summary: `${name}, address ${entry.line}: ${said}`,
      line: entry.line,
    };
  }
  return {
    key: setting.key,
    control: controlId(setting.key),
    text: `Line ${entry.line}: ${said}`,
    summary: `${name}, line ${entry.line}: ${said}`,
    line: entry.line,
  };
}

/**
 * The PATCH body of a group's changed controls, checked by the route's own
 * schema: the body, and the problems in words (none when it may be sent).
 */
export function changesOf(
  group: Group,
  saved: Draft,
  draft: Draft,
): { body: Record<string, unknown>; problems: Problem[] } {
  const body: Record<string, unknown> = {};
  for (const setting of group.settings) {
    const now = draft[setting.key]!;
    if (setting.kind === 'secret' ? now === '' : unchanged(setting, now, saved[setting.key]))
      continue;
    body[setting.key] = apiValue(setting, now);
  }
  const checked = formUpdateInput.safeParse(body);
  const problems = checked.success
    ? []
    : checked.error.issues.map((issue) => problemOf(group, draft, issue as RawIssue));
  return { body, problems };
}

/** Whether a group's controls differ from the form as saved. */
export const isChanged = (group: Group, saved: Draft, draft: Draft) =>
  group.settings.some((setting) =>
    setting.kind === 'secret'
      ? draft[setting.key] !== ''
      : !unchanged(setting, draft[setting.key], saved[setting.key]),
  );

/** The problems a 400 named, in words, at their controls. */
export const problemsFromApi = (
  group: Group,
  draft: Draft,
  issues: readonly { path: string; code?: string; message: string }[],
) => issues.map((issue) => problemOf(group, draft, fromApi(issue)));

/** Settings a Free team cannot turn on (402 plan_required). */
export const isPro = (key: string) => (PRO_SETTINGS as readonly string[]).includes(key);

/** The auto-reply's texts, where answers fill `{{field.…}}` only with the switch on. */
const REPLY_TEXTS = ['autoreplySubject', 'autoreplyBody'] as const;

/**
 * An auto-reply that would go out with blanks (docs/dashboard.md#settings-and-fields):
 * while the reply is on and “Let answers fill placeholders in the reply” is
 * off, each `{{field.…}}` of its subject or text would be sent empty (“Hi ,”),
 * so the save is refused at that text, naming them. Nothing in other groups.
 */
export function emptyAnswerProblems(group: Group, draft: Draft): Problem[] {
  if (group.id !== 'settings-auto-reply') return [];
  if (draft.autoreplyEnabled !== true || draft.autoreplyAnswerPlaceholders !== false) return [];
  return REPLY_TEXTS.flatMap((key) => {
    const fields = [
      ...new Set(
        placeholdersIn(String(draft[key] ?? ''))
          .filter((use) => use.kind === 'field')
          .map((use) => use.written),
      ),
    ];
    if (fields.length === 0) return [];
    const setting = group.settings.find((each) => each.key === key)!;
    const text = `${fields.join(', ')} would be sent empty: answers fill placeholders only with “Let answers fill placeholders in the reply” on. Remove ${fields.length === 1 ? 'it' : 'them'}, or turn that on.`;
    return [
      { key, control: controlId(key), text, summary: `${setting.label}: ${lowerFirst(text)}` },
    ];
  });
}

/**
 * The fields `unique` may name (docs/forms.md#one-answer-per-person): the
 * form's `email` fields that are required and always asked (no `showIf`;
 * on the first page of a form with pages), as the route checks them.
 */
export function personFieldChoices(
  form: Pick<Form, 'fields'> & Partial<Pick<Form, 'pages'>>,
): { id: string; label: string }[] {
  const pages = form.pages ?? [];
  const asked = (id: string) => pages.length <= 1 || pages[0]!.fields.includes(id);
  return (form.fields ?? [])
    .filter(
      (field) =>
        field.type === 'email' && field.required === true && !field.showIf && asked(field.id),
    )
    .map((field) => ({
      id: field.id,
      label: field.label ? `${field.label} (${field.id})` : field.id,
    }));
}
