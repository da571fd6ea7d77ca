import { normalizeOrigin } from './addresses.ts';
import { ServiceError } from './errors.ts';
import type { PlanName } from './form-gating.ts';
import type { ClosedReason, FormRecord } from './form-model.ts';

/**
 * The submit endpoint's rules that need no I/O: which body size applies,
 * whether a form is closed, the monthly allowance, where a browser goes
 * afterwards. The pipeline in lambdas/http/submit applies them in the
 * processing order (docs/submit.md#processing-order).
 */

/** Request size 200 KB (docs/api-basics.md#limits). */
export const BODY_LIMIT_BYTES = 200 * 1024;
/**
 * The product allows 25 MB on Pro forms with uploads, but a synchronous Lambda
 * invoke carries at most 6 MB of event, and a multipart body arrives base64
 * encoded (4/3 larger) with the headers around it. 4.4 MB of body always
 * fits; larger files go straight to S3 (docs/submit.md#the-6-mb-platform-limit).
 */
export const DIRECT_UPLOAD_LIMIT_BYTES = 4_400_000;
export const MAX_FILES_PER_SUBMISSION = 10;
export const DUPLICATE_WINDOW_SECONDS = 24 * 60 * 60;
export const NEAR_LIMIT_SHARE = 0.95;

export function uploadsEnabled(form: Pick<FormRecord, 'allowUploads'>, plan: PlanName): boolean {
  return form.allowUploads && plan === 'pro';
}

/** The body limit of a form: 200 KB, or the platform's direct-upload ceiling with uploads on. */
export function bodyLimitOf(form: Pick<FormRecord, 'allowUploads'>, plan: PlanName): number {
  return uploadsEnabled(form, plan) ? DIRECT_UPLOAD_LIMIT_BYTES : BODY_LIMIT_BYTES;
}

/** Per-file limit: the form's `uploadLimitMb`, never above what one request can carry. */
export function fileLimitOf(form: Pick<FormRecord, 'uploadLimitMb'>): number {
  return Math.min(form.uploadLimitMb * 1024 * 1024, DIRECT_UPLOAD_LIMIT_BYTES);
}

/**
 * Why the form does not accept posts at `now`, or null while it does. A
 * paused form without a stored reason was paused by hand; a passed
 * `autoCloseAt` or a reached `maxSubmissions` closes it even before the
 * closer or the counter's transaction has recorded it.
 */
export function closedReasonAt(
  form: Pick<
    FormRecord,
    'status' | 'closedReason' | 'autoCloseAt' | 'maxSubmissions' | 'submissionCount'
  >,
  now: Date,
): ClosedReason | null {
  if (form.closedReason) return form.closedReason;
  if (form.status !== 'active') return 'manual';
  if (form.autoCloseAt && Date.parse(form.autoCloseAt) <= now.getTime()) return 'auto_close_date';
  if (form.maxSubmissions !== null && (form.submissionCount ?? 0) >= form.maxSubmissions)
    return 'max_submissions';
  return null;
}

const DEFAULT_CLOSED_MESSAGE = 'This form is closed and no longer accepts submissions.';

/** 423 with the form's own closed message on Pro. */
export function formClosed(form: Pick<FormRecord, 'closedMessage'>, plan: PlanName): ServiceError {
  const message =
    plan === 'pro' && form.closedMessage ? form.closedMessage : DEFAULT_CLOSED_MESSAGE;
  return new ServiceError('form_closed', message);
}

export interface Allowances {
  free: number;
  pro: number;
}

/** The team's monthly allowance: its own override when set, else its plan's. */
export function monthlyAllowance(
  team: { plan: PlanName; monthlyAllowance?: number },
  allowances: Allowances,
): number {
  return team.monthlyAllowance ?? allowances[team.plan];
}

/**
 * Spam is stored so a false positive is never lost, but bounded: at most
 * `cap` spam a form per calendar month (UTC) are kept, later spam is
 * dropped like a bot. The counter lives until the month after next starts.
 */
export function spamQuotaAt(now: Date, cap: number) {
  const nextNextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1);
  return { month: usageMonth(now), cap, expiresAt: Math.floor(nextNextMonth / 1000) };
}

/** Usage is counted per calendar month in UTC: `yyyy-mm`. */
export function usageMonth(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/**
 * The month's count, this post included, from which a post carries
 * `warning: 'near_limit'`: 95 % of the allowance, rounded up.
 */
export function nearLimitFrom(allowance: number): number {
  return Math.ceil(allowance * NEAR_LIMIT_SHARE);
}

export const submissionLimitReached = () =>
  new ServiceError(
    'submission_limit_reached',
    "This form's team has used its submissions for this month",
  );

/**
 * Where a browser goes after a stored post, if anywhere (Pro only, http(s)
 * only). `_redirect` may only point at the site that posted (its Origin or
 * Referer) or one of the form's allowed websites: the endpoint must not be
 * an open redirector for links crafted elsewhere.
 */
export function redirectTarget(
  form: Pick<FormRecord, 'completionMode' | 'redirectUrl' | 'allowedOrigins'>,
  plan: PlanName,
  request: { redirectField?: string; origin?: string; referer?: string },
): string | undefined {
  if (plan !== 'pro') return undefined;
  const asked = request.redirectField?.trim();
  if (asked) {
    const target = httpUrl(asked);
    const from = [request.origin, request.referer].map((value) => value && normalizeOrigin(value));
    const trusted = new Set([...form.allowedOrigins, ...from.filter(Boolean)]);
    if (target && trusted.has(new URL(target).origin)) return target;
  }
  if (form.completionMode === 'redirect' && form.redirectUrl) return httpUrl(form.redirectUrl);
  return undefined;
}

function httpUrl(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

/** What the thank-you page says: the Pro completion texts in `message` mode, else the design's. */
export function completionTexts(
  form: Pick<FormRecord, 'completionMode' | 'completionTitle' | 'completionMessage' | 'design'>,
  plan: PlanName,
): { title: string | null; message: string | null } {
  if (plan === 'pro' && form.completionMode === 'message') {
    return { title: form.completionTitle, message: form.completionMessage };
  }
  return { title: null, message: form.design.successMessage ?? null };
}
