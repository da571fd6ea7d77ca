import { domainToASCII } from 'node:url';
import { submissionPageUrl } from './dashboard-links.ts';
import { fillTemplate } from './email-placeholders.ts';
import { pendingCount, type ScanStatus, scanOf } from './file-scans.ts';
import { DEFAULT_NOTIFY_SUBJECT } from './form-defaults.ts';
import type { PlanName } from './form-gating.ts';
import type { FieldDefinition, FormRecord } from './form-model.ts';
import { html, type SafeHtml } from './html.ts';
import { cutToCodePoints } from './submission-answers.ts';
import type { StoredFile, Submission } from './submission-model.ts';
import {
  withoutBidiControls,
  withoutHiddenCharacters,
  withoutInvisibleCharacters,
} from './visible-text.ts';

/**
 * The emails a stored submission causes (docs/delivery.md#emails): the owner
 * notification and the submitter's auto-reply, built here as plain data; `#aws/email.ts` sends them from the deployment's
 * address. Everything a visitor or an owner wrote is text: escaped in the
 * HTML part, stripped of line breaks and control characters in headers.
 */

/** One email to send. The sender adds the deployment's From address. */
export interface EmailMessage {
  to: string;
  /** More recipients of the same message (the notification's `notifyCc`). */
  cc?: string[];
  /** Display name of the From header (the address is the deployment's). */
  fromName: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  /**
   * RFC 3834 `Auto-Submitted`: the notification is `auto-generated`, the
   * auto-reply `auto-replied`, so well-behaved responders (vacation replies)
   * do not answer them and no mail loop starts.
   */
  autoSubmitted?: 'auto-generated' | 'auto-replied';
}

/** `_subject` and `_replyto` as posted, kept beside the submission (store `EmailHints`). */
export interface EmailHints {
  subject?: string;
  replyTo?: string;
}

/** RFC 5322's line limit: no header value of ours gets near it after this cut. */
export const MAX_SUBJECT_LENGTH = 998;
/** `notifyFromName` is 1 to 100 characters (docs/delivery.md#notification-email). */
export const MAX_FROM_NAME_LENGTH = 100;
/** RFC 5321: an address (path) is at most 254 characters. */
export const MAX_ADDRESS_LENGTH = 254;

/** The subject of an auto-reply whose form has none set. */
export const DEFAULT_AUTOREPLY_SUBJECT = 'We received your submission: {{form.name}}';
/** The body of an auto-reply whose form has none set. */
export const DEFAULT_AUTOREPLY_BODY =
  'Thank you for your submission to {{form.name}}. We have received it and will be in touch.';

// Line breaks and tabs read as a space; every other control and format character goes.
const HEADER_BREAKS = /[\r\n\t\v\f\u0085\u2028\u2029]+/gu;

/**
 * A header value that is one line, whatever it was given: CR, LF and the
 * other line breaks become a space, every other control character and the
 * hidden format characters (bidi controls, zero-width) are removed, the ends are trimmed, and the value is cut to `max` code points.
 * Header injection (`Hi\r\nBcc: …`) is impossible through a value cleaned here.
 */
export function headerValue(text: string, max: number = MAX_SUBJECT_LENGTH): string {
  // Hidden characters too (bidi marks, zero-width): a visitor's `_subject` cannot disguise text.
  const oneLine = withoutHiddenCharacters(text.toWellFormed().replace(HEADER_BREAKS, ' ')).trim();
  return cutToCodePoints(oneLine, max).trimEnd();
}

// ---------------------------------------------------------------------------
// Addresses

// RFC 5322 dot-atom local part (no quoted local parts, no comments).
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * `text` as one address SES can send to, or undefined: a single
 * `local@domain.tld` with an ASCII dot-atom local part (SES speaks no
 * SMTPUTF8) and a domain of at least two labels, Unicode domains in their
 * punycode form, at most 254 characters. CR, LF, commas, angle brackets,
 * spaces and display names are all refused, so the value can never name a
 * second recipient or a header of its own. Characters nobody sees (a
 * zero-width space, a soft hyphen, a bidi mark) are left out first, as the
 * email index leaves them out (withoutInvisibleCharacters).
 */
export function plausibleAddress(text: string | undefined): string | undefined {
  if (typeof text !== 'string') return undefined;
  // Characters nobody sees are not part of the address (the email index folds them alike).
  const trimmed = withoutInvisibleCharacters(text).trim();
  if (trimmed.length === 0 || trimmed.length > MAX_ADDRESS_LENGTH) return undefined;
  if (/[\p{Cc}\s,;<>"()[\]\\]/u.test(trimmed)) return undefined;
  const at = trimmed.lastIndexOf('@');
  if (at <= 0 || trimmed.indexOf('@') !== at) return undefined;
  const local = trimmed.slice(0, at);
  const domainPart = trimmed.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return undefined;
  // '' for a domain the URL standard refuses; lower case and punycode otherwise.
  const domain = domainToASCII(domainPart);
  if (domain === '' || domain.length > 253) return undefined;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) return undefined;
  if (!TOP_LEVEL.test(labels.at(-1)!)) return undefined;
  const address = `${local}@${domain}`;
  return address.length <= MAX_ADDRESS_LENGTH ? address : undefined;
}

/** The answer stored under `name`, own properties only. */
function answerOf(submission: Pick<Submission, 'data'>, name: string): string | undefined {
  return Object.hasOwn(submission.data, name) ? submission.data[name] : undefined;
}

/**
 * The address the submitter can be answered at, or undefined: the `_replyto`
 * hint when it is a plausible address, else the first plausible answer of a
 * field of type `email` in the form's field order, else the first plausible
 * answer named `email` in any letter case.
 */
export function submitterAddress(
  submission: Pick<Submission, 'data'>,
  form: Pick<FormRecord, 'fields'>,
  hints?: EmailHints,
): string | undefined {
  const hinted = plausibleAddress(hints?.replyTo);
  if (hinted) return hinted;
  for (const field of form.fields ?? []) {
    if (field.type !== 'email') continue;
    const address = plausibleAddress(answerOf(submission, field.id));
    if (address) return address;
  }
  for (const name of Object.keys(submission.data)) {
    if (name.toLowerCase() !== 'email') continue;
    const address = plausibleAddress(submission.data[name]);
    if (address) return address;
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Placeholders

export interface PlaceholderContext {
  form: Pick<FormRecord, 'id' | 'name'>;
  submission: Pick<Submission, 'id' | 'createdAt' | 'data'>;
  /** Whether `{{field.<id>}}` fills with the visitor's answer; when not, it fills with nothing. */
  answers?: boolean;
}

/** Stored beside the answers but not one of them. */
const INVALID_NAME = '_invalid';

/**
 * `template` with the placeholders of docs/delivery.md#placeholders filled
 * (`fillTemplate`): `{{field.<id>}}` is the answer of that name, without
 * bidi controls, empty when there is none. With `answers: false` (the
 * auto-reply's default), field placeholders fill with nothing: a visitor
 * must not write part of a mail sent in the owner's name to an address the
 * visitor chose. An unknown placeholder (refused at save since; a form
 * saved before may hold one) fills with nothing.
 */
export function fillPlaceholders(template: string, context: PlaceholderContext): string {
  return fillTemplate(template, {
    form: context.form,
    submission: context.submission,
    answer: (name) =>
      context.answers === false
        ? undefined
        : withoutBidiControls(answerOf(context.submission, name) ?? ''),
  });
}

// ---------------------------------------------------------------------------
// Bodies

/** Text whose line breaks show as line breaks, each line escaped. */
function htmlLines(value: string): SafeHtml {
  return html`${normalizeBreaks(value)
    .split('\n')
    .map((line, i) => (i === 0 ? html`${line}` : html`<br>\n${line}`))}`;
}

function normalizeBreaks(value: string): string {
  return value.replace(/\r\n?/g, '\n');
}

/** `1 byte`, `532 bytes`, `14.2 KB`, `3.1 MB` (1,024-based, one decimal). */
export function humanSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return 'unknown size';
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${Math.round(bytes)} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = value >= 100 ? Math.round(value).toString() : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${units[unit]}`;
}

/** `2025-01-02 03:04:05 UTC` from a stored ISO timestamp (as written when it is not one). */
export function receivedAt(createdAt: string): string {
  const time = new Date(createdAt);
  if (Number.isNaN(time.getTime())) return createdAt;
  return `${time.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

const REASON_TEXT: Record<string, string> = {
  required: 'is required',
  invalid_email: 'is not a valid email address',
  invalid_number: 'is not a number',
  too_small: 'is below the minimum',
  too_large: 'is above the maximum',
  too_short: 'is too short',
  too_long: 'is too long',
  pattern_mismatch: 'does not match the expected format',
  invalid_option: 'is not one of the choices',
  invalid_date: 'is not a valid date',
  invalid_url: 'is not a valid URL',
  invalid_tel: 'is not a valid phone number',
  invalid_rating: 'is not a valid rating',
};

export interface AnswerRow {
  /** The field's label (or id), or the answer's name cleaned of hidden characters. */
  label: string;
  value: string;
}

/**
 * The answers as the notification lists them: the form's fields in order
 * (by label, only those answered), then every other answer by name in the
 * order stored. `_invalid` is not an answer.
 */
export function answerRows(
  submission: Pick<Submission, 'data'>,
  form: Pick<FormRecord, 'fields'>,
): AnswerRow[] {
  const rows: AnswerRow[] = [];
  const shown = new Set<string>([INVALID_NAME]);
  for (const field of form.fields ?? []) {
    if (shown.has(field.id)) continue;
    const value = answerOf(submission, field.id);
    if (value === undefined) continue;
    shown.add(field.id);
    rows.push({ label: fieldLabel(field), value: withoutBidiControls(value) });
  }
  for (const name of Object.keys(submission.data)) {
    if (shown.has(name)) continue;
    shown.add(name);
    rows.push({
      label: visibleName(name),
      value: withoutBidiControls(submission.data[name] ?? ''),
    });
  }
  return rows;
}

function fieldLabel(field: FieldDefinition): string {
  const label = field.label ? withoutHiddenCharacters(field.label).trim() : '';
  return label || field.id;
}

function visibleName(name: string): string {
  return withoutHiddenCharacters(name).trim() || '(unnamed)';
}

/**
 * The problems listed in `data._invalid`, one line each ("Email is not a
 * valid email address"); the field named by its label when it is one of the
 * form's. Anything that is not the expected JSON list is skipped; a value
 * with no readable entry gives one general line.
 */
export function answerProblems(
  submission: Pick<Submission, 'data'>,
  form: Pick<FormRecord, 'fields'>,
): string[] {
  const raw = answerOf(submission, INVALID_NAME);
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const lines: string[] = [];
  if (Array.isArray(parsed)) {
    for (const entry of parsed) {
      if (typeof entry !== 'object' || entry === null) continue;
      const { fieldId, reason } = entry as { fieldId?: unknown; reason?: unknown };
      if (typeof fieldId !== 'string' || typeof reason !== 'string') continue;
      const field = form.fields?.find((candidate) => candidate.id === fieldId);
      const name = field ? fieldLabel(field) : visibleName(fieldId);
      const text = Object.hasOwn(REASON_TEXT, reason)
        ? REASON_TEXT[reason]
        : `failed the check "${visibleName(reason)}"`;
      lines.push(`${name} ${text}`);
    }
  }
  if (lines.length === 0) lines.push('Some answers did not pass the form’s checks.');
  return lines;
}

/**
 * A file by name and size, and where its malware scan stands
 * (docs/uploads-and-pages.md#malware-scanning): never a link, and nothing of
 * a file still being checked but its name.
 */
function fileLine(file: StoredFile): string {
  const state = SCAN_WORDS[scanOf(file)](file);
  return `${visibleName(file.name)} (${humanSize(file.size)})${state ? `: ${state}` : ''}`;
}

const SCAN_WORDS: Record<ScanStatus, (file: StoredFile) => string> = {
  pending: () => 'being checked for malware',
  clean: () => 'checked, no malware found',
  infected: (file) => `malware found (${threatWords(file)}), deleted`,
  unsupported: () => 'could not be checked (password-protected or too deeply packed)',
  failed: () => 'could not be checked',
  not_scanned: () => '',
};

const threatWords = (file: StoredFile) =>
  (file.threats ?? []).map((name) => visibleName(name)).join(', ') || 'a threat';

/** "1 file being checked": the files whose verdict has not come yet, or none. */
function checkingLine(files: readonly StoredFile[]): string[] {
  const checking = pendingCount(files);
  if (checking === 0) return [];
  return [
    `${checking} ${checking === 1 ? 'file' : 'files'} being checked for malware: download ${checking === 1 ? 'it' : 'them'} from the submission's page once checked.`,
  ];
}

const TEST_LINE = 'This is a test submission.';
const PROBLEMS_HEADING = 'Answers that did not pass the form’s checks:';
const FILES_HEADING = 'Files:';
const VIEW_SUBMISSION = 'View submission';

export interface OwnerNotificationInput {
  form: FormRecord;
  submission: Submission;
  hints?: EmailHints;
  /** `notifyEmail`, else the team owner's address: the caller decides (`notificationRecipients`). */
  recipient: string;
  /** The other recipients (`notifyCc`), in the same message's Cc. */
  cc?: readonly string[];
  /** The deployment's base URL: the email links to the submission's page in the dashboard. */
  baseUrl: string;
}

/**
 * The owner's notification of a new submission: the subject from `_subject`
 * when the visitor sent one, else the form's `notifySubject` with its
 * placeholders filled; Reply-To the submitter's address when one is found;
 * a text and an HTML body with the answers, files, answer problems, the
 * test flag, the time received and a link to the submission's page in the
 * dashboard (`submissionPageUrl`, which the dashboard's preview uses too).
 * Spam is never notified: the caller checks.
 */
export function ownerNotification(input: OwnerNotificationInput): EmailMessage {
  const { form, submission, hints } = input;
  const context = { form, submission };
  const subject =
    headerValue(hints?.subject ?? '') ||
    headerValue(fillPlaceholders(form.notifySubject, context)) ||
    headerValue(fillPlaceholders(DEFAULT_NOTIFY_SUBJECT, context));
  const rows = answerRows(submission, form);
  const problems = answerProblems(submission, form);
  const files = submission.meta.files ?? [];
  const received = receivedAt(submission.createdAt);
  const formName = headerValue(form.name, Number.MAX_SAFE_INTEGER);
  const pageUrl = submissionPageUrl(input.baseUrl, form.id, submission.id);

  const text: string[] = [`New submission to ${formName}`];
  if (submission.isTest) text.push('', TEST_LINE);
  text.push('');
  if (rows.length === 0) text.push('(no answers)');
  for (const row of rows) {
    const value = normalizeBreaks(row.value);
    text.push(value.includes('\n') ? `${row.label}:\n${indent(value)}` : `${row.label}: ${value}`);
  }
  if (files.length > 0) {
    text.push('', FILES_HEADING, ...files.map((file) => `- ${fileLine(file)}`));
    text.push(...checkingLine(files));
  }
  if (problems.length > 0) {
    text.push('', PROBLEMS_HEADING, ...problems.map((line) => `- ${line}`));
  }
  text.push('', `Received: ${received}`, `Submission: ${submission.id}`);
  text.push('', `${VIEW_SUBMISSION}: ${pageUrl}`, '');

  const body = html`<h1 style="font-size:18px">New submission to ${formName}</h1>${
    submission.isTest ? html`\n<p><strong>${TEST_LINE}</strong></p>` : ''
  }
${
  rows.length === 0
    ? html`<p>(no answers)</p>`
    : html`<table cellpadding="6" style="border-collapse:collapse">${rows.map(
        (row) =>
          html`\n<tr><th align="left" valign="top">${row.label}</th><td>${htmlLines(row.value)}</td></tr>`,
      )}\n</table>`
}${
  files.length > 0
    ? html`\n<h2 style="font-size:16px">${FILES_HEADING.slice(0, -1)}</h2>\n<ul>${files.map(
        (file) => html`\n<li>${fileLine(file)}</li>`,
      )}\n</ul>${checkingLine(files).map((line) => html`\n<p>${line}</p>`)}`
    : ''
}${
  problems.length > 0
    ? html`\n<p>${PROBLEMS_HEADING}</p>\n<ul>${problems.map((line) => html`\n<li>${line}</li>`)}\n</ul>`
    : ''
}
<p>Received: ${received}<br>\nSubmission: ${submission.id}</p>
<p><a href="${pageUrl}">${VIEW_SUBMISSION}</a></p>`;

  const replyTo = submitterAddress(submission, form, hints);
  const cc = (input.cc ?? []).map(recipientAddress);
  return {
    to: recipientAddress(input.recipient),
    ...(cc.length > 0 ? { cc } : {}),
    fromName: headerValue(form.notifyFromName, MAX_FROM_NAME_LENGTH),
    ...(replyTo ? { replyTo } : {}),
    subject,
    autoSubmitted: 'auto-generated',
    text: text.join('\n'),
    html: htmlDocument(subject, body),
  };
}

export interface MalwareNoticeInput {
  form: FormRecord;
  submission: Submission;
  /** The notification's recipients (`notificationRecipients`). */
  recipient: string;
  cc?: readonly string[];
  baseUrl: string;
}

/**
 * The notification's recipients told that a file sent with a submission was
 * found infected and deleted (docs/uploads-and-pages.md#malware-scanning):
 * which files, the threats' names, a link to the submission's page. No
 * Reply-To (the sender is the one who sent it) and no answer of the
 * submission's but the file names. Undefined when no file is infected.
 */
export function malwareNotice(input: MalwareNoticeInput): EmailMessage | undefined {
  const { form, submission } = input;
  const infected = (submission.meta.files ?? []).filter((file) => scanOf(file) === 'infected');
  if (infected.length === 0) return undefined;
  const formName = headerValue(form.name, Number.MAX_SAFE_INTEGER);
  const subject = headerValue(`Malware found in a file sent to ${formName}`);
  const pageUrl = submissionPageUrl(input.baseUrl, form.id, submission.id);
  const received = receivedAt(submission.createdAt);
  const lead =
    infected.length === 1
      ? 'A file sent with a submission contains malware. It was deleted: nobody can download it.'
      : `${infected.length} files sent with a submission contain malware. They were deleted: nobody can download them.`;
  const keptLine = 'The submission and its answers are kept.';
  const lines = infected.map((file) => fileLine(file));
  const text = [
    `Malware found in a file sent to ${formName}`,
    '',
    lead,
    '',
    ...lines.map((line) => `- ${line}`),
    '',
    keptLine,
    '',
    `Received: ${received}`,
    `Submission: ${submission.id}`,
    '',
    `${VIEW_SUBMISSION}: ${pageUrl}`,
    '',
  ];
  const body = html`<h1 style="font-size:18px">Malware found in a file sent to ${formName}</h1>
<p>${lead}</p>
<ul>${lines.map((line) => html`\n<li>${line}</li>`)}\n</ul>
<p>${keptLine}</p>
<p>Received: ${received}<br>\nSubmission: ${submission.id}</p>
<p><a href="${pageUrl}">${VIEW_SUBMISSION}</a></p>`;
  const cc = (input.cc ?? []).map(recipientAddress);
  return {
    to: recipientAddress(input.recipient),
    ...(cc.length > 0 ? { cc } : {}),
    fromName: headerValue(form.notifyFromName, MAX_FROM_NAME_LENGTH),
    subject,
    autoSubmitted: 'auto-generated',
    text: text.join('\n'),
    html: htmlDocument(subject, body),
  };
}

/**
 * Who gets a form's notification: `notifyEmail`, else the team owner, and
 * `notifyCc` in Cc, each address once whatever its case. Both are Pro
 * settings: a team that went back to Free mails its owner alone. `routed`
 * are the addresses of the `notifyRules` that hold on the submission
 * (`routedRecipients`, Pro too): when there are any, they take the place of
 * `notifyEmail` (the first in To, the others in Cc before `notifyCc`);
 * none, and it is `notifyEmail` as before (docs/forms.md#routing-by-answer).
 *
 * One message to all of them rather than one each
 * (docs/delivery.md#notification-email): SES takes or refuses a message as
 * a whole, so the email's one claim (store/deliveries.ts) covers every
 * recipient, and a retried message can never mail again those it already
 * reached while missing the others.
 */
export function notificationRecipients(
  form: Pick<FormRecord, 'notifyEmail' | 'notifyCc'>,
  team: { plan: PlanName; ownerEmail: string },
  routed: readonly string[] = [],
): { to: string; cc: string[] } {
  if (team.plan !== 'pro') return { to: team.ownerEmail, cc: [] };
  const [first, ...others] = routed;
  const to = first ?? (form.notifyEmail || team.ownerEmail);
  const seen = new Set([to.toLowerCase()]);
  const cc = [...others, ...(form.notifyCc ?? [])].filter((address) => {
    const folded = address.toLowerCase();
    if (seen.has(folded)) return false;
    seen.add(folded);
    return true;
  });
  return { to, cc };
}

/** A recipient as SES takes it: normalized when plausible, else one cleaned line for SES to judge. */
function recipientAddress(address: string): string {
  return plausibleAddress(address) ?? headerValue(address, MAX_ADDRESS_LENGTH);
}

function indent(value: string): string {
  return value
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

export function htmlDocument(title: string, body: SafeHtml): string {
  return `${html`<!DOCTYPE html>
<html><head><meta charset="utf-8">
<title>${title}</title></head>
<body style="font-family:sans-serif;font-size:14px;line-height:1.5">
${body}
</body></html>
`}`;
}

export interface AutoReplyInput {
  form: FormRecord;
  submission: Submission;
  /** The submitter's address (`submitterAddress`). */
  to: string;
  /** Where the submitter's answer goes: the notification recipient. */
  replyTo?: string;
}

/**
 * The submitter's auto-reply: `autoreplySubject` and `autoreplyBody` with
 * their placeholders filled (defaults when unset), the body as text and as
 * escaped HTML with its line breaks kept, From name `notifyFromName`.
 */
export function autoReply(input: AutoReplyInput): EmailMessage {
  const { form, submission } = input;
  const context = { form, submission, answers: form.autoreplyAnswerPlaceholders === true };
  const subject =
    headerValue(fillPlaceholders(form.autoreplySubject ?? '', context)) ||
    headerValue(fillPlaceholders(DEFAULT_AUTOREPLY_SUBJECT, context));
  const filledBody = normalizeBreaks(fillPlaceholders(form.autoreplyBody ?? '', context));
  const body = filledBody.trim() ? filledBody : fillPlaceholders(DEFAULT_AUTOREPLY_BODY, context);
  const replyTo = input.replyTo === undefined ? undefined : plausibleAddress(input.replyTo);
  return {
    to: recipientAddress(input.to),
    fromName: headerValue(form.notifyFromName, MAX_FROM_NAME_LENGTH),
    ...(replyTo ? { replyTo } : {}),
    subject,
    autoSubmitted: 'auto-replied',
    text: body.endsWith('\n') ? body : `${body}\n`,
    html: htmlDocument(subject, html`<p>${htmlLines(body)}</p>`),
  };
}
