import { scanStateOf, scanStateText } from './file-scans.ts';
import type { FieldDefinition, FormRecord } from './form-model.ts';
import type { StoredFile, Submission } from './submission-model.ts';
import { withoutBidiControls, withoutHiddenCharacters } from './visible-text.ts';

/**
 * The Slack and Discord messages of a stored submission
 * (docs/integrations.md#slack-and-discord-messages), built here as plain
 * JSON bodies; the webhook worker sends them. Everything a visitor or an
 * owner wrote is text: escaped for the service's markup so it is shown as
 * written, never formatting, linking or mentioning anyone, and cut to the
 * service's limits so the message is never refused for its size.
 *
 * Lengths are measured in UTF-16 code units (`string.length`), never fewer
 * than the characters either service counts, and a cut never splits a
 * surrogate pair.
 */

export interface ChatAnswer {
  label: string;
  value: string;
}

export interface ChatMessageInput {
  formName: string;
  /** Field order first, then other answer names; the builders cut to 10. */
  answers: readonly ChatAnswer[];
  /** {baseUrl}/app/forms/{id}/submissions/{submissionId} (submissionPageUrl of #domain/dashboard-links.ts) */
  submissionUrl: string;
  isTest: boolean;
  createdAt: string; // ISO
  /**
   * `files_scanned`: the message says the submission's files have their
   * malware scan's verdicts (docs/delivery.md#files-scanned), its answers
   * being the files and their states (`chatScanAnswers`).
   */
  about?: 'files_scanned';
}

/** Answers a message shows; the rest are counted ("3 more answers in the dashboard"). */
export const MAX_CHAT_ANSWERS = 10;

/** Shown for an answer left blank: neither service takes an empty text. */
export const EMPTY_ANSWER = '(no answer)';
const UNNAMED = '(unnamed)';
const FILES_LABEL = 'Files';
const ELLIPSIS = '…';

// ---------------------------------------------------------------------------
// Answers

/**
 * A stored submission's answers for a chat message: the form's fields in
 * order (by label; a file field as its file names), then every other answer
 * by name in the order stored, then files sent under a name that is not one
 * of the form's file fields. Names starting with `_` (the stored `_invalid`)
 * are not answers. A field with no answer is left out; one answered blank is
 * kept with an empty value (the builders show it as "(no answer)").
 */
export function chatAnswers(submission: Submission, form: FormRecord): ChatAnswer[] {
  const rows: ChatAnswer[] = [];
  const shown = new Set<string>();
  const files = submission.meta.files ?? [];
  const fileFieldIds = new Set<string>();
  for (const field of form.fields ?? []) {
    if (shown.has(field.id) || field.id.startsWith('_')) continue;
    shown.add(field.id);
    if (field.type === 'file') {
      fileFieldIds.add(field.id);
      const names = files.filter((file) => file.field === field.id).map(fileName);
      if (names.length > 0) rows.push({ label: fieldLabel(field), value: names.join(', ') });
      continue;
    }
    if (!Object.hasOwn(submission.data, field.id)) continue;
    rows.push({ label: fieldLabel(field), value: answerText(submission.data[field.id]) });
  }
  for (const name of Object.keys(submission.data)) {
    if (shown.has(name) || name.startsWith('_')) continue;
    shown.add(name);
    rows.push({ label: visibleName(name), value: answerText(submission.data[name]) });
  }
  // Files under another name, grouped by that name in the order first sent.
  const others = new Map<string, string[]>();
  for (const file of files) {
    const field = file.field ?? '';
    if (fileFieldIds.has(field)) continue;
    const names = others.get(field);
    if (names) names.push(fileName(file));
    else others.set(field, [fileName(file)]);
  }
  for (const [field, names] of others) {
    rows.push({ label: field === '' ? FILES_LABEL : visibleName(field), value: names.join(', ') });
  }
  return rows;
}

/**
 * A submission's files with their malware scan's verdicts, for the message
 * of `submission.files_scanned` (docs/delivery.md#files-scanned): one row
 * per file, its name and what was found.
 */
export function chatScanAnswers(submission: Submission): ChatAnswer[] {
  return (submission.meta.files ?? []).map((file) => ({
    label: fileName(file),
    value: scanStateText(
      scanStateOf(file, submission.createdAt, Date.parse(submission.createdAt)),
      (file.threats ?? []).map(visibleName),
    ),
  }));
}

function fieldLabel(field: FieldDefinition): string {
  const label = field.label ? withoutHiddenCharacters(field.label).trim() : '';
  return label || visibleName(field.id);
}

function visibleName(name: string): string {
  return withoutHiddenCharacters(name).trim() || UNNAMED;
}

const fileName = (file: StoredFile) => visibleName(file.name);

const answerText = (value: string | undefined) => withoutBidiControls(value ?? '');

// ---------------------------------------------------------------------------
// Text shared by both services

/**
 * Text as a line or paragraph of a message: CR LF and CR as LF, other control
 * and bidi characters removed (they could reorder or hide the text around
 * them), tabs kept. The builders take any input, not only chatAnswers'.
 */
function cleanText(text: string, multiline: boolean): string {
  const breaks = text.replace(/\r\n?/g, '\n');
  const kept = multiline ? breaks : breaks.replace(/\n+/g, ' ');
  // Controls (\p{Cc}) but line feeds and tabs.
  return withoutBidiControls(kept.replace(/[^\P{Cc}\n\t]/gu, '')).toWellFormed();
}

/**
 * How one service escapes a character of text, given the character before it
 * (`''` at the start): escaping goes a character at a time so that a cut
 * falls between escapes, never inside one.
 */
type CharacterEscape = (character: string, previous: string) => string;

export interface Escaper {
  (text: string): string;
  character: CharacterEscape;
}

function escaper(character: CharacterEscape): Escaper {
  const whole = (text: string) => {
    let out = '';
    let previous = '';
    for (const each of text) {
      out += character(each, previous);
      previous = each;
    }
    return out;
  };
  return Object.assign(whole, { character });
}

/**
 * `text` escaped, cut so that the escaped result with `…` fits `max` units.
 * Cutting the raw text a code point at a time means a cut never splits an
 * escape (`&amp;`, `\*`) or a surrogate pair.
 */
export function fitEscaped(text: string, max: number, escaped: Escaper): string {
  const whole = escaped(text);
  if (whole.length <= max) return whole;
  let out = '';
  let previous = '';
  for (const character of text) {
    const next = escaped.character(character, previous);
    if (out.length + next.length + ELLIPSIS.length > max) break;
    out += next;
    previous = character;
  }
  return out + ELLIPSIS;
}

const answersShown = (input: ChatMessageInput) => input.answers.slice(0, MAX_CHAT_ANSWERS);

function moreAnswersLine(input: ChatMessageInput): string | undefined {
  const more = input.answers.length - MAX_CHAT_ANSWERS;
  if (more <= 0) return undefined;
  return `${more} more ${more === 1 ? 'answer' : 'answers'} in the dashboard`;
}

/** `2026-03-04 05:06:07 UTC`, or the text as given when it is not a time. */
function receivedText(createdAt: string): string {
  const time = new Date(createdAt);
  if (Number.isNaN(time.getTime())) return cleanText(createdAt, false).slice(0, 40);
  return `${time.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function headline(input: ChatMessageInput): string {
  if (input.about === 'files_scanned') return 'Files checked for malware, a submission to ';
  return input.isTest ? 'Test submission to ' : 'New submission to ';
}

// ---------------------------------------------------------------------------
// Slack

/**
 * Slack's limits (docs.slack.dev, Block Kit reference): a header's
 * plain_text 150 characters, a section's text 1 to 3,000, a context's
 * element text 3,000, 50 blocks a message; a message's `text` is cut by
 * Slack after 40,000 characters and should stay under 4,000.
 */
export const SLACK_LIMITS = {
  headerText: 150,
  sectionText: 3000,
  contextText: 3000,
  blocks: 50,
  text: 4000,
} as const;

/** An answer's label is cut sooner than the section it heads, so the answer keeps the room. */
const SLACK_LABEL_MAX = 300;

export interface SlackText {
  type: 'plain_text' | 'mrkdwn';
  text: string;
  /** plain_text: `:name:` shortcodes stay text. */
  emoji?: false;
  /** mrkdwn: no automatic links for URLs, channel names or mentions. */
  verbatim?: true;
}

export type SlackBlock =
  | { type: 'header'; text: SlackText & { type: 'plain_text' } }
  | { type: 'section'; text: SlackText }
  | { type: 'context'; elements: SlackText[] };

/**
 * An incoming webhook's JSON body. No `link_names` (its absence is what keeps
 * `@channel` and `@name` plain text), no previews of links in answers.
 */
export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
  unfurl_links: false;
  unfurl_media: false;
}

/**
 * Slack's control characters `&`, `<` and `>` as the entities Slack asks
 * for (docs.slack.dev, "Formatting text for app surfaces": escaping), so
 * `<!channel>`, `<@U123>` and `<https://x|y>` in an answer are shown as
 * written and never mention or link.
 */
const SLACK_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
export const slackEscape = escaper((character) => SLACK_ENTITIES[character] ?? character);

const mrkdwn = (text: string): SlackText => ({ type: 'mrkdwn', text, verbatim: true });

/** The link's address with Slack's control characters (and the label separator `|`) encoded. */
function slackLink(url: string, label: string): string {
  const address = cleanText(url, false).replaceAll('|', '%7C');
  return `<${slackEscape(address)}|${label}>`;
}

/**
 * One incoming-webhook message: a header with the form's name, "Test
 * submission" and the time received, one section per answer (label in bold,
 * then the answer) up to 10, the count of answers left out, a link to the
 * submission in the dashboard; `text` is the notification's fallback.
 */
export function slackMessage(input: ChatMessageInput): SlackMessage {
  const formName = cleanText(input.formName, false) || UNNAMED;
  const blocks: SlackBlock[] = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: fitEscaped(formName, SLACK_LIMITS.headerText, slackEscape),
        emoji: false,
      },
    },
    {
      type: 'context',
      elements: [
        mrkdwn(
          `${input.isTest ? '*Test submission* · ' : ''}Received ${slackEscape(receivedText(input.createdAt))}`,
        ),
      ],
    },
  ];
  for (const answer of answersShown(input)) {
    const label = fitEscaped(
      cleanText(answer.label, false).trim() || UNNAMED,
      SLACK_LABEL_MAX,
      slackEscape,
    );
    const heading = `*${label}*\n`;
    const value = cleanText(answer.value, true);
    const shown =
      value.trim() === ''
        ? `_${EMPTY_ANSWER}_`
        : fitEscaped(value, SLACK_LIMITS.sectionText - heading.length, slackEscape);
    blocks.push({ type: 'section', text: mrkdwn(heading + shown) });
  }
  if (input.answers.length === 0) blocks.push({ type: 'section', text: mrkdwn(`_(no answers)_`) });
  const more = moreAnswersLine(input);
  if (more) blocks.push({ type: 'context', elements: [mrkdwn(more)] });
  blocks.push({
    type: 'section',
    text: mrkdwn(slackLink(input.submissionUrl, 'View the submission in the dashboard')),
  });
  return {
    text: fitEscaped(`${headline(input)}${formName}`, SLACK_LIMITS.text, slackEscape),
    blocks,
    unfurl_links: false,
    unfurl_media: false,
  };
}

// ---------------------------------------------------------------------------
// Discord

/**
 * Discord's limits (discord.com/developers/docs, Message resource: embed
 * limits; Execute Webhook): content 2,000 characters, 10 embeds, an embed's
 * title 256, description 4,096, 25 fields, a field's name 256 and value
 * 1,024, footer 2,048, and 6,000 across an embed's title, description,
 * field names and values, footer and author name.
 */
export const DISCORD_LIMITS = {
  content: 2000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  embedTotal: 6000,
} as const;

export interface DiscordEmbedField {
  name: string;
  value: string;
  inline: false;
}

export interface DiscordEmbed {
  title: string;
  url: string;
  description?: string;
  fields: DiscordEmbedField[];
  footer?: { text: string };
  timestamp?: string;
}

/** An execute-webhook call's JSON body. */
export interface DiscordMessage {
  content: string;
  /** Empty `parse`: no mention in the message pings anyone, whatever its text. */
  allowed_mentions: { parse: [] };
  embeds: [DiscordEmbed];
}

/**
 * Discord's markdown and mention characters preceded by a backslash (its
 * markdown shows any backslash-escaped punctuation as written): `*`, `_`,
 * `~`, `` ` ``, `|` (spoilers), `<` `>` (mentions, timestamps, quotes), `#`
 * and `-` (headings, subtext, lists), `[` `]` `(` `)` (masked links), `@`
 * (`@everyone`, `@here`) and the backslash itself; and a `.` after a digit
 * (an ordered list's `1.`).
 */
const DISCORD_MARKUP = new Set('\\*_~`|<>#-[]()@');
export const discordEscape = escaper((character, previous) =>
  DISCORD_MARKUP.has(character) || (character === '.' && previous >= '0' && previous <= '9')
    ? `\\${character}`
    : character,
);

/** A field's value shares what the embed's 6,000 leave after its other texts. */
function fairShares(lengths: readonly number[], budget: number): number[] {
  const shares = lengths.map(() => 0);
  let left = budget;
  const order = lengths
    .map((length, index) => ({ length, index }))
    .sort((a, b) => a.length - b.length);
  order.forEach(({ length, index }, position) => {
    const share = Math.min(length, Math.floor(left / (order.length - position)));
    shares[index] = share;
    left -= share;
  });
  return shares;
}

/**
 * One execute-webhook message: `content` says a submission came to the form
 * (a test one said so), and one embed titled with the form's name links to
 * the submission in the dashboard, with up to 10 answers as fields by label,
 * the count of answers left out in its footer, and the time received.
 * `allowed_mentions.parse` is always empty.
 */
export function discordMessage(input: ChatMessageInput): DiscordMessage {
  const formName = cleanText(input.formName, false) || UNNAMED;
  const title = fitEscaped(formName, DISCORD_LIMITS.title, discordEscape);
  const description = input.isTest ? '**Test submission**' : undefined;
  const more = moreAnswersLine(input);
  const footer = more ? { text: more } : undefined;

  const shown = answersShown(input).slice(0, DISCORD_LIMITS.fields);
  const names = shown.map((answer) =>
    fitEscaped(
      cleanText(answer.label, false).trim() || UNNAMED,
      DISCORD_LIMITS.fieldName,
      discordEscape,
    ),
  );
  const values = shown.map((answer) => cleanText(answer.value, true));
  const fixed =
    title.length +
    (description?.length ?? 0) +
    (footer?.text.length ?? 0) +
    names.reduce((sum, name) => sum + name.length, 0);
  const wanted = values.map((value) =>
    value.trim() === ''
      ? EMPTY_ANSWER.length
      : Math.min(discordEscape(value).length, DISCORD_LIMITS.fieldValue),
  );
  const shares = fairShares(wanted, DISCORD_LIMITS.embedTotal - fixed);
  const fields = values.map(
    (value, index): DiscordEmbedField => ({
      name: names[index] ?? UNNAMED,
      value:
        value.trim() === ''
          ? EMPTY_ANSWER
          : fitEscaped(value, Math.max(shares[index] ?? 0, ELLIPSIS.length), discordEscape),
      inline: false,
    }),
  );

  const time = new Date(input.createdAt);
  const embed: DiscordEmbed = {
    title,
    url: cleanText(input.submissionUrl, false),
    ...(description ? { description } : {}),
    fields,
    ...(footer ? { footer } : {}),
    ...(Number.isNaN(time.getTime()) ? {} : { timestamp: time.toISOString() }),
  };
  return {
    content: fitEscaped(`${headline(input)}${formName}`, DISCORD_LIMITS.content, discordEscape),
    allowed_mentions: { parse: [] },
    embeds: [embed],
  };
}
