import type { ConditionGroup, FormPage } from './form-logic.ts';
import type { IntegrationKind } from './integrations.ts';

/** The form as the service stores it and as the API shows it. */

export const FORM_TYPES = ['contact', 'waitlist', 'feedback', 'rsvp', 'custom'] as const;
export type FormType = (typeof FORM_TYPES)[number];

export const FIELD_TYPES = [
  'text',
  'email',
  'textarea',
  'number',
  'date',
  'select',
  'radio',
  'checkbox',
  'rating',
  'tel',
  'url',
  'file',
  'hidden',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

// Object types, not interfaces: the answer's shape keeps unknown keys of a
// field and of the design (a loose object), and only an object type fits that.
export type FieldDefinition = {
  id: string;
  type: FieldType;
  label?: string;
  required?: boolean;
  placeholder?: string;
  helpText?: string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  min?: number;
  max?: number;
  options?: string[];
  /** Asked only when this holds on earlier answers (docs/forms.md#logic). */
  showIf?: ConditionGroup;
  /** Must be answered, when asked, if this holds on earlier answers. */
  requiredIf?: ConditionGroup;
  /** Filled from the hosted page's URL query (`?id=value`); a `hidden` field always is. */
  prefill?: boolean;
  /**
   * A select's or radio's options taken out since (docs/forms.md#changing-options):
   * the old words → the option their answers now count under (a rename), or
   * null (counted apart, by their words). Kept by the service on every save.
   */
  formerOptions?: Record<string, string | null>;
};

/**
 * Who else a submission's notification goes to when its answers match
 * (docs/forms.md#routing-by-answer), Pro.
 */
export type NotifyRule = { if: ConditionGroup; to: string[] };

/**
 * The email field a setting reads the person's address from (`unique`):
 * docs/forms.md#one-answer-per-person.
 */
export type PersonField = { field: string };

export type FormDesign = {
  theme?: 'light' | 'dark' | 'auto';
  accent?: string;
  title?: string;
  description?: string;
  submitLabel?: string;
  successMessage?: string;
};

/** Confirm by email: the email field whose address confirms each answer; null: off. */
export type ConfirmEmail = { field: string } | null;

export type FormStatus = 'active' | 'paused';
export type ClosedReason = 'manual' | 'max_submissions' | 'auto_close_date';
export type CompletionMode = 'default' | 'message' | 'redirect';

/** Every setting a client can read (and most it can write). */
export interface FormSettings {
  name: string;
  type: FormType;
  emoji: string | null;
  status: FormStatus;
  closedReason: ClosedReason | null;
  maxSubmissions: number | null;
  autoCloseAt: string | null;
  closedMessage: string | null;
  notifyEnabled: boolean;
  notifyEmail: string | null;
  /** Up to 4 more recipients of the notification (Pro), in the message's Cc. */
  notifyCc: string[];
  /** Routing by answer: every rule that holds adds its `to` (docs/forms.md#routing-by-answer). */
  notifyRules: NotifyRule[];
  notifySubject: string;
  notifyFromName: string;
  autoreplyEnabled: boolean;
  autoreplySubject: string | null;
  autoreplyBody: string | null;
  /**
   * Whether `{{field.<id>}}` placeholders fill in the auto-reply. Off by
   * default: the answers are the visitor's, and the auto-reply goes out in
   * the owner's name to an address the visitor chose.
   */
  autoreplyAnswerPlaceholders: boolean;
  /** Auto-replies the form sends in one hour at most (whoever they go to). */
  autoreplyHourlyLimit: number;
  completionMode: CompletionMode;
  completionTitle: string | null;
  completionMessage: string | null;
  redirectUrl: string | null;
  fields: FieldDefinition[] | null;
  /** The form's steps (docs/forms.md#pages); null: one page of every field. */
  pages: FormPage[] | null;
  design: FormDesign;
  allowedOrigins: string[];
  blockedIps: string[];
  blockedCountries: string[];
  captchaEnabled: boolean;
  captchaProvider: 'turnstile' | null;
  captchaSiteKey: string | null;
  dontStoreIp: boolean;
  /**
   * Whether the same answers from the same visitor within 24 hours go to spam
   * as `duplicate` (docs/submit.md#link-spam-and-duplicates). On by default;
   * a survey whose visitors answer again on purpose may turn it off.
   */
  markDuplicates: boolean;
  /**
   * One answer per person (docs/forms.md#one-answer-per-person): the email
   * field whose address may answer once; a second submission with it is kept
   * in spam as `duplicate_person`. null: off (the default).
   */
  unique: PersonField | null;
  /**
   * Days a submission is kept from its receipt; null keeps it until deleted
   * (docs/submissions.md#retention).
   */
  retentionDays: number | null;
  /**
   * Confirm by email (docs/forms.md#confirm-by-email): the required email
   * field whose address confirms each answer before it counts; null: off.
   */
  confirmEmail: ConfirmEmail;
  allowUploads: boolean;
  uploadLimitMb: number;
}

/** The stored form: settings plus ownership, the write-only secret and counters. */
export interface FormRecord extends FormSettings {
  id: string;
  teamId: string;
  userId: string;
  /** Public form key, always lower case. */
  key: string;
  captchaSecretKey: string | null;
  /**
   * The integrations connected (docs/integrations.md#the-api), written in
   * the transaction that connects or disconnects one; absent on forms
   * stored before integrations (none).
   */
  integrations?: IntegrationKind[];
  /** Stored submissions that are neither spam nor test. */
  submissionCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface FullForm extends FormSettings {
  id: string;
  key: string;
  endpoint: string;
  captchaSecretKeySet: boolean;
  /** The integrations connected, in a fixed order (sheets, slack, discord). */
  integrations: IntegrationKind[];
  userId: string;
  createdAt: string;
  updatedAt: string;
}

export interface FormSummary {
  id: string;
  name: string;
  type: FormType;
  emoji: string | null;
  status: FormStatus;
  key: string;
  endpoint: string;
  createdAt: string;
  submissionCount: number;
  /** Test submissions outside spam: beside `submissionCount`, never in it (docs/api-basics.md#counting). */
  testCount: number;
  /** Unread submissions (not spam): the dashboard's badge; beyond the short shape's first fields. */
  unreadCount: number;
}

export function endpointOf(baseUrl: string, key: string): string {
  return `${baseUrl}/s/${key}`;
}

export function toFullForm(form: FormRecord, baseUrl: string): FullForm {
  const { id, teamId: _team, captchaSecretKey, submissionCount: _count, ...visible } = form;
  return {
    id,
    ...visible,
    endpoint: endpointOf(baseUrl, form.key),
    captchaSecretKeySet: captchaSecretKey !== null,
    integrations: form.integrations ?? [],
  };
}

export function toFormSummary(
  form: Pick<
    FormRecord,
    'id' | 'name' | 'type' | 'emoji' | 'status' | 'key' | 'createdAt' | 'submissionCount'
  > & { unreadCount: number; testCount: number },
  baseUrl: string,
): FormSummary {
  return {
    id: form.id,
    name: form.name,
    type: form.type,
    emoji: form.emoji,
    status: form.status,
    key: form.key,
    endpoint: endpointOf(baseUrl, form.key),
    createdAt: form.createdAt,
    submissionCount: form.submissionCount,
    testCount: form.testCount,
    unreadCount: form.unreadCount,
  };
}
