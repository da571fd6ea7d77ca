/**
 * The rules of webhook delivery (docs/delivery.md#retries):
 * which outcome an attempt has and how long to wait before the next one.
 * Pure: the sender produces an `AttemptResult`, the worker applies these.
 */

/**
 * Delays after attempts 1 to 7, in seconds: 5 s, 30 s, 2 min, 5 min, 15 min,
 * 30 min, 1 h; 6,755 s (about 1 h 53 min) in all: about two hours with
 * jitter and the attempts' own time (the retry window of about two hours).
 * Eight attempts in all; after the eighth the message goes to the DLQ.
 */
export const DEFAULT_RETRY_DELAYS_SECONDS: readonly number[] = [5, 30, 120, 300, 900, 1800, 3600];

/** Jitter on each scheduled delay: ±20 %. */
export const RETRY_JITTER = 0.2;

/** SQS ChangeMessageVisibility allows at most 12 h. */
export const MAX_RETRY_DELAY_SECONDS = 43_200;

/**
 * Delivery item statuses (docs/delivery.md#delivery-statuses): `pending` and
 * `retrying` are open, the other three final (delivery-log.ts says when).
 */
export const DELIVERY_STATUSES = [
  'pending',
  'delivered',
  'retrying',
  'failed',
  'cancelled',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Why a delivery was cancelled, found when its message came to be sent:
 * the webhook or integration it was queued for was disconnected (one
 * connected since is another connection), the team is no longer on Pro, or
 * the submission was deleted.
 */
export const CANCEL_REASONS = [
  'webhook_removed',
  'integration_removed',
  'plan_not_pro',
  'submission_deleted',
  'submission_spam',
] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

export type AttemptError = 'timeout' | 'network' | 'refused_address' | 'invalid_url';

export type AttemptResult =
  | { kind: 'response'; status: number; retryAfter?: string }
  | { kind: 'error'; error: AttemptError; message: string };

export type AttemptOutcome = 'delivered' | 'retry' | 'fail';

/**
 * 2xx is delivered. Timeouts, network errors (TLS failures included), 408,
 * 429 and 5xx are retried. Everything else fails at once and marks the
 * webhook failing: 1xx, 3xx (redirects are never followed), other 4xx, an
 * address the guard refused and a URL that is not `https://`.
 */
export function classifyAttempt(result: AttemptResult): AttemptOutcome {
  if (result.kind === 'error') {
    return result.error === 'timeout' || result.error === 'network' ? 'retry' : 'fail';
  }
  const { status } = result;
  if (status >= 200 && status <= 299) return 'delivered';
  if (status === 408 || status === 429 || (status >= 500 && status <= 599)) return 'retry';
  return 'fail';
}

const DAY_NAME = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /;
const HAS_ZONE = /\b(?:GMT|UTC)\b|[+-]\d{4}\b/;

/**
 * A `Retry-After` value as seconds from `now`: delay-seconds (digits only)
 * or an HTTP-date (IMF-fixdate, RFC 850 or asctime, the last read as GMT as
 * RFC 9110 says). Undefined when it is neither or names no future time.
 */
export function retryAfterSeconds(value: string, now: Date): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return seconds > 0 ? seconds : undefined;
  }
  if (!DAY_NAME.test(text)) return undefined;
  const at = Date.parse(HAS_ZONE.test(text) ? text : `${text} GMT`);
  if (!Number.isFinite(at)) return undefined;
  const seconds = Math.ceil((at - now.getTime()) / 1000);
  return seconds > 0 ? seconds : undefined;
}

/**
 * Seconds to wait before the next attempt, or undefined when the schedule is
 * spent (`attempt` > schedule length). The schedule's delay for this attempt
 * with ±20 % jitter, raised when `Retry-After` asks for longer, but never
 * past the whole retry window (the schedule's sum × 1.2, its longest jittered
 * total) nor 12 h (SQS visibility); whole seconds, at least 1.
 */
export function nextDelaySeconds(input: {
  /** Attempts made so far, ≥ 1. */
  attempt: number;
  schedule: readonly number[];
  retryAfter?: string;
  now: Date;
  /** [0, 1), like Math.random. */
  random: () => number;
  /**
   * Seconds since this sending's first attempt: no delay reaches past the
   * retry window measured from there (repeated long `Retry-After`s included);
   * undefined once the window is spent.
   */
  elapsedSeconds?: number;
}): number | undefined {
  const { attempt, schedule } = input;
  if (!Number.isSafeInteger(attempt) || attempt < 1) {
    throw new RangeError(`attempt must be a whole number ≥ 1, got ${attempt}`);
  }
  if (attempt > schedule.length) return undefined;
  const base = schedule[attempt - 1]!;
  const jitter = 1 + RETRY_JITTER * (2 * input.random() - 1);
  let delay = Math.round(base * jitter);
  if (input.retryAfter !== undefined) {
    const asked = retryAfterSeconds(input.retryAfter, input.now);
    if (asked !== undefined && asked > delay) delay = asked;
  }
  const window = Math.floor(schedule.reduce((sum, each) => sum + each, 0) * (1 + RETRY_JITTER));
  let left = window;
  if (input.elapsedSeconds !== undefined) {
    left = window - Math.max(0, input.elapsedSeconds);
    if (left < 1) return undefined;
  }
  return Math.max(1, Math.min(delay, left, MAX_RETRY_DELAY_SECONDS));
}
