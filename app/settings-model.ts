import { PRO_SETTINGS } from '#domain/form-gating.ts';
import { type FormUpdate, formUpdateInput } from '#domain/form-update-input.ts';
import { FORM_TYPE_WORDS, FORM_TYPES } from './form-types.ts';
import type { Form } from './model.ts';

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
  | 'datetime'
  | 'secret';

export interface Setting {
  key: SettingKey;
  label: string;
  kind: Kind;
  hint?: string;
  options?: readonly (readonly [string, string])[];
  /** Empty means "none" (null), not "empty text". */
  nullable?: boolean;
  /** Takes email placeholders: the screen lists them beside it, each insertable. */
  placeholders?: boolean;
}

/** A key of the PATCH body (the write-only captcha secret too): never `fields` or `design`. */
export type SettingKey = Exclude<keyof FormUpdate, 'fields' | 'design'>;

export const GROUPS: readonly { title: string; settings: readonly Setting[] }[] = [
  {
    title: 'General',
    settings: [
      { key: 'name', label: 'Name', kind: 'text' },
      { key: 'emoji', label: 'Emoji', kind: 'text', nullable: true },
      {
        key: 'type',
        label: 'Type (picks the summary)',
        kind: 'select',
        options: FORM_TYPES.map((type) => [type, FORM_TYPE_WORDS[type].label]),
      },
    ],
  },
  {
    title: 'Notifications',
    settings: [
      { key: 'notifyEnabled', label: 'Email me each submission', kind: 'checkbox' },
      {
        key: 'notifyEmail',
        label: 'Send them to',
        kind: 'email',
        nullable: true,
        hint: 'Empty: the team owner.',
      },
      { key: 'notifySubject', label: 'Subject', kind: 'text', placeholders: true },
      { key: 'notifyFromName', label: 'Sender name', kind: 'text' },
    ],
  },
  {
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
    title: 'Spam and security',
    settings: [
      {
        key: 'allowedOrigins',
        label: 'Websites allowed to post (one a line; none: any)',
        kind: 'lines',
      },
      { key: 'blockedIps', label: 'Blocked IP addresses or ranges (one a line)', kind: 'lines' },
      { key: 'blockedCountries', label: 'Blocked countries (codes, one a line)', kind: 'lines' },
      { key: 'captchaEnabled', label: 'Ask for a Turnstile captcha', kind: 'checkbox' },
      { key: 'captchaSiteKey', label: 'Turnstile site key', kind: 'text', nullable: true },
      { key: 'captchaSecretKey', label: 'Turnstile secret key', kind: 'secret', nullable: true },
    ],
  },
  {
    title: 'Uploads',
    settings: [
      { key: 'allowUploads', label: 'Accept files', kind: 'checkbox' },
      { key: 'uploadLimitMb', label: 'Largest file (MB)', kind: 'number' },
    ],
  },
  {
    title: 'Privacy',
    settings: [
      { key: 'dontStoreIp', label: "Don't keep submitters' IP addresses", kind: 'checkbox' },
    ],
  },
];

export type Draft = Record<string, string | boolean>;

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` value in this browser's zone. */
export function toLocalInput(iso: string): string {
  const at = new Date(iso);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** What each control shows for the form as saved. */
export function draftOf(form: Form, group: (typeof GROUPS)[number]): Draft {
  const draft: Draft = {};
  for (const setting of group.settings) {
    const value = (form as Record<string, unknown>)[setting.key];
    if (setting.kind === 'checkbox') draft[setting.key] = value === true;
    else if (setting.kind === 'lines') draft[setting.key] = ((value as string[]) ?? []).join('\n');
    else if (setting.kind === 'datetime')
      draft[setting.key] = value ? toLocalInput(value as string) : '';
    else if (setting.kind === 'secret') draft[setting.key] = '';
    else draft[setting.key] = value === null || value === undefined ? '' : String(value);
  }
  return draft;
}

/** The API value of one control's content. */
function apiValue(setting: Setting, value: string | boolean): unknown {
  if (setting.kind === 'checkbox') return value;
  const text = value as string;
  if (setting.kind === 'lines')
    return text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  if (text.trim() === '' && setting.nullable) return null;
  if (setting.kind === 'number') return text.trim() === '' ? Number.NaN : Number(text);
  // A datetime-local value is this browser's wall clock: sent as the instant it names.
  if (setting.kind === 'datetime') return new Date(text).toISOString();
  return text;
}

/**
 * The PATCH body of a group's changed controls, checked by the route's own
 * schema: the body, or the problems by setting name.
 */
export function changesOf(
  group: (typeof GROUPS)[number],
  saved: Draft,
  draft: Draft,
): { body: Record<string, unknown>; problems: Record<string, string> } {
  const body: Record<string, unknown> = {};
  for (const setting of group.settings) {
    const now = draft[setting.key]!;
    if (setting.kind === 'secret' ? now === '' : now === saved[setting.key]) continue;
    body[setting.key] = apiValue(setting, now);
  }
  const checked = formUpdateInput.safeParse(body);
  const problems: Record<string, string> = {};
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const key = String(issue.path[0] ?? '');
      problems[key] ??= issue.message;
    }
  }
  return { body, problems };
}

/** Settings a Free team cannot turn on (402 plan_required). */
export const isPro = (key: string) => (PRO_SETTINGS as readonly string[]).includes(key);
