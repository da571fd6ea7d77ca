import { randomBytes, randomUUID } from 'node:crypto';
import type { FieldDefinition, FormRecord, FormSettings, FormType } from './form-model.ts';

export const DEFAULT_NOTIFY_SUBJECT = 'New submission: {{form.name}}';
export const DEFAULT_NOTIFY_FROM_NAME = 'Form Service';
export const DEFAULT_UPLOAD_LIMIT_MB = 10;
/** A busy form's auto-replies in an hour: enough for a launch, bounded for an attack. */
export const DEFAULT_AUTOREPLY_HOURLY_LIMIT = 100;

/** Starter fields by form type (docs/forms.md#starter-fields); `custom` accepts any fields. */
const STARTER_FIELDS: Record<FormType, FieldDefinition[] | null> = {
  contact: [
    { id: 'name', type: 'text', label: 'Name', required: true },
    { id: 'email', type: 'email', label: 'Email', required: true },
    { id: 'message', type: 'textarea', label: 'Message', required: true },
  ],
  waitlist: [
    { id: 'email', type: 'email', label: 'Email', required: true },
    { id: 'name', type: 'text', label: 'Name', required: false },
  ],
  feedback: [
    { id: 'rating', type: 'rating', label: 'Rating', required: true, max: 5 },
    { id: 'message', type: 'textarea', label: 'Message', required: false },
  ],
  rsvp: [
    { id: 'name', type: 'text', label: 'Name', required: true },
    { id: 'email', type: 'email', label: 'Email', required: true },
    {
      id: 'attending',
      type: 'radio',
      label: 'Attending',
      required: true,
      options: ['Yes', 'No', 'Maybe'],
    },
    { id: 'guests', type: 'number', label: 'Guests', required: false, min: 0, max: 20 },
  ],
  custom: null,
};

export function starterFields(type: FormType): FieldDefinition[] | null {
  const fields = STARTER_FIELDS[type];
  return fields ? structuredClone(fields) : null;
}

export function defaultSettings(name: string, type: FormType): FormSettings {
  return {
    name,
    type,
    emoji: null,
    status: 'active',
    closedReason: null,
    maxSubmissions: null,
    autoCloseAt: null,
    closedMessage: null,
    notifyEnabled: true,
    notifyEmail: null,
    notifyCc: [],
    notifyRules: [],
    notifySubject: DEFAULT_NOTIFY_SUBJECT,
    notifyFromName: DEFAULT_NOTIFY_FROM_NAME,
    autoreplyEnabled: false,
    autoreplySubject: null,
    autoreplyBody: null,
    autoreplyAnswerPlaceholders: false,
    autoreplyHourlyLimit: DEFAULT_AUTOREPLY_HOURLY_LIMIT,
    completionMode: 'default',
    completionTitle: null,
    completionMessage: null,
    redirectUrl: null,
    fields: starterFields(type),
    pages: null,
    design: { theme: 'auto', accent: '#2563eb' },
    allowedOrigins: [],
    blockedIps: [],
    blockedCountries: [],
    captchaEnabled: false,
    captchaProvider: null,
    captchaSiteKey: null,
    dontStoreIp: false,
    markDuplicates: true,
    unique: null,
    retentionDays: null,
    confirmEmail: null,
    allowUploads: false,
    uploadLimitMb: DEFAULT_UPLOAD_LIMIT_MB,
  };
}

const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A public form key: 12 characters of [a-z0-9] (about 62 bits), starting
 * with a letter so it never looks like a number in a URL.
 */
export function newFormKey(): string {
  const bytes = randomBytes(24);
  let key = '';
  for (const byte of bytes) {
    // Rejection sampling keeps every character equally likely.
    if (byte >= 252) continue;
    const char = KEY_ALPHABET[byte % 36]!;
    if (key.length === 0 && !/[a-z]/.test(char)) continue;
    key += char;
    if (key.length === 12) return key;
  }
  return newFormKey();
}

export function newForm(input: {
  teamId: string;
  userId: string;
  name: string;
  type: FormType;
  now: Date;
}): FormRecord {
  const at = input.now.toISOString();
  return {
    ...defaultSettings(input.name, input.type),
    id: randomUUID(),
    teamId: input.teamId,
    userId: input.userId,
    key: newFormKey(),
    captchaSecretKey: null,
    submissionCount: 0,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * A stored form with every setting it lacks at its default: a form stored
 * before a setting existed reads as if it had been made with it.
 */
export function withSettingDefaults(form: FormRecord): FormRecord {
  const { fields: _starter, ...defaults } = defaultSettings(form.name, form.type);
  return { ...defaults, ...form };
}

/** Every setting's name, read off the defaults so a new setting is copied without a change here. */
const SETTING_NAMES = Object.keys(defaultSettings('', 'custom')) as (keyof FormSettings)[];

/**
 * The copy a duplicate makes: a new form carrying every setting, field and
 * design of the source (and its captcha secret), but open, with no limit, no
 * close date and no submissions. Only settings are copied, so counters and
 * ownership can never leak from the source.
 */
export function duplicateForm(
  source: FormRecord,
  input: { name: string; userId: string; now: Date },
): FormRecord {
  const settings = Object.fromEntries(
    SETTING_NAMES.map((name) => [name, structuredClone(source[name])]),
  ) as unknown as FormSettings;
  return {
    ...newForm({
      teamId: source.teamId,
      userId: input.userId,
      name: input.name,
      type: source.type,
      now: input.now,
    }),
    ...settings,
    name: input.name,
    captchaSecretKey: source.captchaSecretKey,
    status: 'active',
    closedReason: null,
    maxSubmissions: null,
    autoCloseAt: null,
  };
}
