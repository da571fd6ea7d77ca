import type { ScanStatus } from '#domain/file-scans.ts';
import type { FieldDefinition, Submission } from './model.ts';

/**
 * The answers model: how each answer of a submission is shown
 * (docs/dashboard.md#a-submission). Pure: the page draws what this decides,
 * and only an http(s) address or a checked email or phone number ever
 * becomes a link.
 */

/** A file of the submission: its place in `meta.files` is what downloads it. */
export interface ShownFile {
  index: number;
  name: string;
  mime: string;
  size: number;
  /** Its malware scan (docs/uploads-and-pages.md#malware-scanning): parts/file-scan.tsx shows it. */
  scan: ScanStatus;
  threats?: string[];
}

/** How one answer is shown. */
export type Shown =
  | { kind: 'empty' }
  | { kind: 'text'; text: string }
  | { kind: 'email'; address: string }
  | { kind: 'tel'; number: string; href: string }
  | { kind: 'url'; text: string; href: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'files'; files: ShownFile[] };

/** One row of a submission: a field's label, its answer as shown, and its problem. */
export interface AnswerRow {
  id: string;
  label: string;
  shown: Shown;
  problem: string | undefined;
}

const REASONS: Record<string, string> = {
  required: 'Required, but left empty',
  invalid_email: 'Not an email address',
  invalid_number: 'Not a number',
  too_small: 'Below the smallest allowed',
  too_large: 'Above the largest allowed',
  too_short: 'Shorter than allowed',
  too_long: 'Longer than allowed',
  pattern_mismatch: 'Does not match the required format',
  invalid_option: 'Not one of the options',
  invalid_date: 'Not a date',
  invalid_url: 'Not a web address',
  invalid_tel: 'Not a phone number',
  invalid_rating: 'Not a rating on its scale',
};

/** The reasons `data._invalid` lists, by field id; an unreadable report gives none. */
function problemsOf(report: string | undefined): Map<string, string> {
  const problems = new Map<string, string>();
  if (!report) return problems;
  try {
    for (const each of JSON.parse(report) as { fieldId: string; reason: string }[]) {
      problems.set(each.fieldId, REASONS[each.reason] ?? 'Did not pass its check');
    }
  } catch {
    // A report the dashboard cannot read names no field; the answers still show.
  }
  return problems;
}

// Loose on purpose: the API checked email fields; this only keeps what would break a mailto out.
const ADDRESS = /^[^\s@,;:?&#%<>"'()[\]\\]+@[^\s@,;:?&#%<>"'()[\]\\]+\.[^\s@,;:?&#%<>"'()[\]\\]+$/;
const PHONE = /^\+?[\d\s().-]{5,30}$/;

export function isAddress(value: string): boolean {
  return value.length <= 254 && ADDRESS.test(value);
}

/** An http or https address as a link target, or undefined (javascript:, data:, anything else). */
export function webAddress(value: string): string | undefined {
  const trimmed = value.trim();
  if (!/^https?:\/\//i.test(trimmed)) return undefined;
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function phone(value: string): Shown | undefined {
  const trimmed = value.trim();
  if (!PHONE.test(trimmed) || trimmed.replace(/\D/g, '').length < 5) return undefined;
  const digits = trimmed.replace(/[^\d+]/g, '');
  return { kind: 'tel', number: trimmed, href: `tel:${digits}` };
}

/**
 * A checkbox answer's options, in order: options joined by `,` as the API
 * stores repeated names (docs/submit.md), read by walking positions so an option that
 * holds a comma ("Yes, please") stays whole. Undefined when it is not such a list.
 */
export function optionsOf(value: string, options: readonly string[]): string[] | undefined {
  const tried = new Set<number>();
  const walk = (start: number): string[] | undefined => {
    if (tried.has(start)) return undefined;
    tried.add(start);
    for (const option of options) {
      if (option === '' || !value.startsWith(option, start)) continue;
      const end = start + option.length;
      if (end === value.length) return [option];
      if (value[end] !== ',') continue;
      const rest = walk(end + 1);
      if (rest) return [option, ...rest];
    }
    return undefined;
  };
  return walk(0);
}

/** Names an answer without a field is read by, as the auto-reply reads them (docs/delivery.md). */
const EMAIL_NAMES = new Set(['email', 'e-mail', 'mail', 'email_address', 'emailaddress']);
const PHONE_NAMES = new Set(['phone', 'tel', 'telephone', 'mobile', 'phone_number']);

/** How one answer is shown, from its field's type (or its name, without a field). */
export function shownAnswer(
  value: string | undefined,
  field: Pick<FieldDefinition, 'type' | 'options'> | undefined,
  name: string,
  problem: string | undefined,
): Shown {
  if (value === undefined || value.trim() === '') return { kind: 'empty' };
  const text: Shown = { kind: 'text', text: value };
  // An answer that failed its check is shown as it came, never as a link.
  if (problem) return text;
  const type = field?.type ?? guessedType(name.toLowerCase(), value);
  switch (type) {
    case 'email':
      return isAddress(value.trim()) ? { kind: 'email', address: value.trim() } : text;
    case 'tel':
      return phone(value) ?? text;
    case 'url': {
      const href = webAddress(value);
      return href ? { kind: 'url', text: value.trim(), href } : text;
    }
    case 'checkbox': {
      if (value === 'on') return { kind: 'text', text: 'Ticked' };
      // Boxes of one name arrive joined by a bare `,`; a comma of prose is followed by a space.
      const items = field?.options?.length
        ? optionsOf(value, field.options)
        : value.split(/,(?!\s)/);
      return items && items.length > 1 ? { kind: 'list', items } : text;
    }
    default:
      return text;
  }
}

function guessedType(name: string, value: string): string | undefined {
  if (EMAIL_NAMES.has(name)) return 'email';
  if (PHONE_NAMES.has(name)) return 'tel';
  return webAddress(value) ? 'url' : undefined;
}

/** The name a file was sent under, read as its answers are (`docs[]` is `docs`). */
const fileField = (field: string | undefined) => field?.replace(/\[\]$/, '') || undefined;

/**
 * The answers in the form's field order, labelled, each with its problem and
 * its files; then answers (and files) under names the form does not define,
 * in the order they came. A file stored before files kept their field
 * (docs/submissions.md#files) goes to the form's one file field, or to
 * "Files" after the rest when the form has none or several.
 */
export function answerRows(
  submission: Pick<Submission, 'data' | 'meta'>,
  fields: FieldDefinition[] | null,
): AnswerRow[] {
  const { data } = submission;
  const problems = problemsOf(data._invalid);
  const defined = fields ?? [];
  const fileFields = defined.filter((field) => field.type === 'file');
  const files = new Map<string, ShownFile[]>();
  (submission.meta.files ?? []).forEach((file, index) => {
    const under = fileField(file.field) ?? (fileFields.length === 1 ? fileFields[0]!.id : '_files');
    files.set(under, [
      ...(files.get(under) ?? []),
      {
        index,
        name: file.name,
        mime: file.mime,
        size: file.size,
        scan: file.scan,
        ...(file.threats ? { threats: file.threats } : {}),
      },
    ]);
  });
  const row = (
    id: string,
    label: string,
    field: FieldDefinition | undefined,
    value: string | undefined,
  ): AnswerRow => {
    const problem = problems.get(id);
    const attached = files.get(id);
    files.delete(id);
    const shown = attached
      ? ({ kind: 'files', files: attached } as const)
      : shownAnswer(value, field, id, problem);
    return { id, label, shown, problem };
  };
  const known = new Set(defined.map((field) => field.id));
  const rows = defined.map((field) =>
    row(
      field.id,
      field.label || field.id,
      field,
      Object.hasOwn(data, field.id) ? data[field.id] : undefined,
    ),
  );
  for (const [name, value] of Object.entries(data)) {
    if (name !== '_invalid' && !known.has(name)) rows.push(row(name, name, undefined, value));
  }
  for (const name of [...files.keys()]) {
    rows.push(row(name, name === '_files' ? 'Files' : name, undefined, undefined));
  }
  return rows;
}

/** Who sent a submission, as far as its answers say. */
export interface Sender {
  name?: string;
  /** An address a reply can go to. */
  email?: string;
}

const NAME_IDS = ['name', 'full_name', 'fullname', 'your_name', 'your-name', 'fullName'];

/**
 * The sender: a name answer (or a first and a last name), and the reply
 * address as the auto-reply finds it: the first email field's answer, else
 * an answer named `email` (docs/delivery.md#who-hears-of-a-submission).
 */
export function senderOf(data: Record<string, string>, fields: FieldDefinition[] | null): Sender {
  const answer = (id: string) =>
    (Object.hasOwn(data, id) ? data[id]?.trim() : undefined) || undefined;
  const problems = problemsOf(data._invalid);
  const named = NAME_IDS.map(answer).find(Boolean);
  const parts = [
    answer('first_name') ?? answer('firstName'),
    answer('last_name') ?? answer('lastName'),
  ];
  const name = named ?? (parts.some(Boolean) ? parts.filter(Boolean).join(' ') : undefined);
  const emailField = (fields ?? []).find(
    (field) => field.type === 'email' && answer(field.id) && !problems.has(field.id),
  );
  const candidate = emailField ? answer(emailField.id) : answer('email');
  const email = candidate && isAddress(candidate) ? candidate : undefined;
  return { ...(name ? { name } : {}), ...(email ? { email } : {}) };
}

/**
 * A mailto link replying to `address` about the form: "Re: <form name>",
 * the name on one line (a header value never carries CR or LF).
 */
export function replyHref(address: string, formName: string): string {
  const to = encodeURIComponent(address).replace(/%40/g, '@');
  const subject = `Re: ${formName.replace(/[\r\n]+/g, ' ')}`;
  return `mailto:${to}?subject=${encodeURIComponent(subject)}`;
}

/** The browser in a User-Agent, in a word or two (the full string is shown too). */
export function browserOf(userAgent: string | undefined): string | undefined {
  if (!userAgent) return undefined;
  const known: [RegExp, string][] = [
    [/Edg\//, 'Edge'],
    [/OPR\//, 'Opera'],
    [/Firefox\//, 'Firefox'],
    [/Chrome\//, 'Chrome'],
    [/Safari\//, 'Safari'],
    [/curl\//i, 'curl'],
  ];
  return known.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'Other';
}

const DEVICES: Record<NonNullable<Submission['meta']['deviceClass']>, string> = {
  mobile: 'Phone',
  tablet: 'Tablet',
  desktop: 'Computer',
  bot: 'A program, not a person’s browser',
};

/** The kind of device in words. */
export function deviceWords(device: Submission['meta']['deviceClass']): string | undefined {
  return device ? DEVICES[device] : undefined;
}

const regions = new Intl.DisplayNames(undefined, { type: 'region' });
export function countryName(code: string | undefined): string | undefined {
  if (!code) return undefined;
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
}

export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
