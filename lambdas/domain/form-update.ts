import { emailFieldSettingIssues } from './confirmation.ts';
import { invalidRequest } from './errors.ts';
import { assertPlanAllows, type PlanName } from './form-gating.ts';
import { logicIssues } from './form-logic-checks.ts';
import type { FormRecord } from './form-model.ts';
import type { FormUpdate } from './form-update-input.ts';
import { withOptionHistory } from './option-history.ts';
import { personFieldIssue } from './unique-person.ts';
import type { Issue } from './validation-issues.ts';

export { type FormUpdate, formUpdateInput, parseFormUpdate } from './form-update-input.ts';

/**
 * PATCH rules on a saved form, as a pure function: the handler loads the
 * form, calls this and saves the result, so "nothing is saved" on a 400 or a
 * 402 simply means this throws before returning.
 */
export function applyFormUpdate(
  current: FormRecord,
  update: FormUpdate,
  plan: PlanName,
  now: Date,
): FormRecord {
  assertPlanAllows(update, plan);

  // A key left out keeps its value; null is a value (it clears). `fields`
  // and `design` are whole values, so assigning them replaces them.
  // Typed so a schema key that is not a form setting fails to compile.
  const changes: Partial<FormRecord> = update;
  const next: FormRecord = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value !== undefined) Object.assign(next, { [key]: value });
  }

  applyStatus(current, update, next, now);
  // Options taken out of a choice field stay known to its summary (docs/forms.md#changing-options).
  if (update.fields !== undefined) next.fields = withOptionHistory(current.fields, next.fields);
  // The provider follows the keys: Turnstile is the only one there is.
  next.captchaProvider =
    next.captchaSiteKey !== null || next.captchaSecretKey !== null ? 'turnstile' : null;

  const issues = [
    ...closeDateIssues(update, now),
    ...captchaIssues(update, next),
    ...completionIssues(update, next),
    ...formLogicIssues(current, update, next),
    ...fileFieldIssues(update, next),
    ...confirmEmailIssues(update, next),
    ...uniqueFieldIssues(update, next),
  ];
  if (issues.length > 0) {
    const [first] = issues;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    throw invalidRequest(
      `The form settings are not consistent: ${first!.path}: ${first!.message}${more}`,
      issues,
    );
  }

  next.updatedAt = now.toISOString();
  return next;
}

/**
 * Pausing by PATCH is a manual close; `active` reopens, whatever closed the
 * form (docs/forms.md#closing-a-form). Re-sending `paused` for a form that is already closed is
 * not a new close, so the automatic reason it has stays (clients often send
 * back the whole object they read).
 */
function applyStatus(current: FormRecord, update: FormUpdate, next: FormRecord, now: Date): void {
  if (update.status === 'paused') {
    next.closedReason = current.status === 'paused' ? (current.closedReason ?? 'manual') : 'manual';
  }
  if (update.status === 'active') {
    next.closedReason = null;
    // A close date already passed would close the reopened form again (or
    // leave an open form that claims it closed): reopening drops it unless
    // this request sets a new one.
    const passed = next.autoCloseAt !== null && Date.parse(next.autoCloseAt) <= now.getTime();
    if (current.status === 'paused' && update.autoCloseAt === undefined && passed) {
      next.autoCloseAt = null;
    }
  }
}

function closeDateIssues(update: FormUpdate, now: Date): Issue[] {
  if (update.autoCloseAt == null || Date.parse(update.autoCloseAt) > now.getTime()) return [];
  return [{ path: 'autoCloseAt', code: 'custom', message: 'Must be in the future' }];
}

/**
 * Captcha on needs both keys, saved or sent now. Which key the issue names
 * depends on what the request tried: turning it on, or clearing a key it uses.
 */
function captchaIssues(update: FormUpdate, next: FormRecord): Issue[] {
  const missing = next.captchaSiteKey === null || next.captchaSecretKey === null;
  if (!next.captchaEnabled || !missing) return [];
  if (update.captchaEnabled === true) {
    return [
      {
        path: 'captchaEnabled',
        code: 'custom',
        message: 'Needs captchaSiteKey and captchaSecretKey, saved before or in the same request',
      },
    ];
  }
  return (['captchaSiteKey', 'captchaSecretKey'] as const)
    .filter((key) => update[key] === null)
    .map((path) => ({
      path,
      code: 'custom',
      message: 'Cannot be cleared while captchaEnabled is true; set captchaEnabled to false too',
    }));
}

function completionIssues(update: FormUpdate, next: FormRecord): Issue[] {
  if (next.completionMode !== 'redirect' || next.redirectUrl !== null) return [];
  if (update.redirectUrl === null) {
    return [
      {
        path: 'redirectUrl',
        code: 'custom',
        message: 'Cannot be removed while completionMode is redirect',
      },
    ];
  }
  return [
    {
      path: 'completionMode',
      code: 'custom',
      message: 'redirect needs a redirectUrl, saved before or in the same request',
    },
  ];
}

/**
 * The form's logic as it would be saved (docs/forms.md#what-a-save-refuses):
 * checked when the request changes the fields, the pages or the routing, so
 * a rule naming a field this request removes is refused at the rule.
 */
function formLogicIssues(current: FormRecord, update: FormUpdate, next: FormRecord): Issue[] {
  if (
    update.fields === undefined &&
    update.pages === undefined &&
    update.notifyRules === undefined
  ) {
    return [];
  }
  return logicIssues(
    { fields: next.fields, pages: next.pages ?? null, notifyRules: next.notifyRules ?? [] },
    { fields: current.fields },
  );
}

/**
 * `confirmEmail` names a required email field every visitor is asked
 * (docs/forms.md#confirm-by-email): checked when the request sets it or
 * changes the fields or pages, so removing or changing its field without
 * clearing the setting is refused at `confirmEmail.field`. A form stored
 * before has none (its default).
 */
function confirmEmailIssues(update: FormUpdate, next: FormRecord): Issue[] {
  if (
    update.confirmEmail === undefined &&
    update.fields === undefined &&
    update.pages === undefined
  )
    return [];
  return emailFieldSettingIssues('confirmEmail', next.confirmEmail ?? null, next);
}

/**
 * A file field needs a form that accepts files (docs/forms.md#file-fields):
 * otherwise the hosted page could not offer it and a post without the file
 * would be taken. So saving one while `allowUploads` is off (before and in
 * the request) is refused at the field's type, and turning `allowUploads` off
 * while one remains is refused at it. Checked only when the request touches
 * either, so a form saved before this rule can still change its other settings.
 */
function fileFieldIssues(update: FormUpdate, next: FormRecord): Issue[] {
  if (update.fields === undefined && update.allowUploads === undefined) return [];
  if (next.allowUploads) return [];
  const index = (next.fields ?? []).findIndex((field) => field.type === 'file');
  if (index < 0) return [];
  if (update.allowUploads === false) {
    return [
      {
        path: 'allowUploads',
        code: 'custom',
        message: `Cannot be turned off while fields.${index} is a file field; remove it in the same request`,
      },
    ];
  }
  return [
    {
      path: `fields.${index}.type`,
      code: 'custom',
      message:
        'A file field needs the form to accept files: set allowUploads to true (Pro), before or in the same request',
    },
  ];
}

/**
 * `unique` names an email field every post carries (docs/forms.md#one-answer-per-person):
 * checked when the request sets it or changes the fields or pages, so a form whose
 * field is removed, renamed, made optional or moved off the first page while `unique`
 * names it is refused at `unique.field`, and a form saved otherwise keeps its other
 * settings editable.
 */
function uniqueFieldIssues(update: FormUpdate, next: FormRecord): Issue[] {
  if (update.unique === undefined && update.fields === undefined && update.pages === undefined) {
    return [];
  }
  if (!next.unique) return [];
  const issue = personFieldIssue(next, next.unique.field, 'unique.field');
  return issue ? [issue] : [];
}
