import { DEFAULT_FIELDS } from './default-fields.ts';
import type { PlanName } from './form-gating.ts';
import type { FormPage } from './form-logic.ts';
import type { FieldDefinition, FormRecord } from './form-model.ts';
import {
  closedReasonAt,
  completionTexts,
  formClosed,
  redirectTarget,
  uploadsEnabled,
} from './submit-rules.ts';

/**
 * What a visitor's browser may know of a form: the hosted page
 * (`GET /f/{key}`) is drawn from it and the embed reads it as JSON
 * (`GET /f/{key}/form.json`). Built field by field from the stored form, so
 * a setting added later (and every secret: `captchaSecretKey`, notify
 * addresses, block lists, webhooks) stays out unless it is named here.
 */
export interface PublicForm {
  key: string;
  title: string;
  description: string | null;
  theme: 'light' | 'dark' | 'auto';
  /** `#rrggbb`, or null for the default blue. */
  accent: string | null;
  submitLabel: string;
  /** The fields drawn: the form's, or DEFAULT_FIELDS for a form that takes any field. */
  fields: FieldDefinition[];
  /**
   * The form's steps (docs/forms.md#pages), which the page's script walks with
   * the same evaluator as the server; null: one page.
   */
  pages: FormPage[] | null;
  /** Posts carry files (multipart): a file field is drawn and uploads are on. */
  multipart: boolean;
  /**
   * The form has a file field but cannot take files now (uploads off, or the
   * team no longer on Pro): the field is drawn disabled with a note, never
   * left out, and is not required of the visitor (docs/forms.md#file-fields).
   */
  filesOff: boolean;
  /** Set when the form takes no posts: the message to show instead of the fields. */
  closedMessage: string | null;
  /** The Turnstile site key when the form asks for a captcha (the secret never leaves the table). */
  captchaSiteKey: string | null;
  /** What the visitor sees after a post (the thank-you page's texts). */
  successTitle: string;
  successMessage: string;
  /** Where a successful post leads instead (Pro `completionMode: redirect`). */
  redirectUrl: string | null;
  /** The server's clock when this was built (`_t`, the fill-time check). */
  renderedAt: number;
  /**
   * The fill-time check's minimum (the `minFillTimeMs` setting): the script waits this long
   * (plus a margin) after drawing before it posts. Absent in the dashboard's preview, which
   * never posts; the script then waits the product's 2 s.
   */
  minFillMs?: number;
}

export { DEFAULT_FIELDS } from './default-fields.ts';

const ACCENT = /^#[0-9a-f]{6}$/i;
const DEFAULT_SUBMIT_LABEL = 'Send';
const DEFAULT_SUCCESS_TITLE = 'Thank you!';
const DEFAULT_SUCCESS_MESSAGE = 'Your submission has been received.';

const text = (value: string | null | undefined): string | null =>
  value === null || value === undefined || value.trim() === '' ? null : value;

/**
 * The public view of `form` at `now`. Every field is drawn: a file field of a
 * form that takes no uploads now (the endpoint would answer `400
 * uploads_disabled` to a file) is drawn disabled, saying so (`filesOff`),
 * and asked of nobody; a closed or paused form shows its closed message, the
 * endpoint's own (`closedMessage` on Pro, else the default).
 */
export function publicFormOf(
  form: FormRecord,
  plan: PlanName,
  now: Date,
  minFillMs: number,
): PublicForm {
  const uploads = uploadsEnabled(form, plan);
  const fields = form.fields ?? DEFAULT_FIELDS;
  const hasFiles = fields.some((field) => field.type === 'file');
  const completion = completionTexts(form, plan);
  const captcha = form.captchaEnabled && text(form.captchaSiteKey) !== null;
  return {
    key: form.key,
    title: text(form.design.title) ?? form.name,
    description: text(form.design.description),
    theme: form.design.theme ?? 'auto',
    accent: form.design.accent && ACCENT.test(form.design.accent) ? form.design.accent : null,
    submitLabel: text(form.design.submitLabel) ?? DEFAULT_SUBMIT_LABEL,
    fields: fields.map((field) => {
      // A choice field's former options are the owner's history, not the visitor's choices.
      const { formerOptions: _history, ...shown } = structuredClone(field);
      if (field.type !== 'file' || uploads) return shown;
      // A file the form cannot take is never required, on any branch: it is drawn disabled.
      const { requiredIf: _never, ...offered } = shown;
      return { ...offered, required: false };
    }),
    pages: form.fields && form.pages ? structuredClone(form.pages) : null,
    multipart: hasFiles && uploads,
    filesOff: hasFiles && !uploads,
    closedMessage: closedReasonAt(form, now) === null ? null : formClosed(form, plan).message,
    captchaSiteKey: captcha ? form.captchaSiteKey : null,
    successTitle: text(completion.title) ?? DEFAULT_SUCCESS_TITLE,
    successMessage: text(completion.message) ?? DEFAULT_SUCCESS_MESSAGE,
    redirectUrl: redirectTarget(form, plan, {}) ?? null,
    renderedAt: now.getTime(),
    minFillMs,
  };
}
