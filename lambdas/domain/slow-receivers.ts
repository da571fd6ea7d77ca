/**
 * A slow receiver gets one delivery at a time (docs/delivery.md#a-slow-receiver):
 * after an attempt that timed out or took half the receiver timeout or more,
 * the receiver (a form's webhook, a Slack or Discord integration) is held
 * for one timeout; its other messages are put back until then without
 * using an attempt; when the hold ends, one message at a time takes the
 * turn (a lease of one timeout and a margin) until an attempt is quick
 * again. So a receiver that hangs keeps at most one of the webhook worker's
 * slots busy, after the first timeout shows it, and its deliveries keep
 * their retries. Pure: the store writes the hold with conditional updates.
 */

/** An attempt that took at least this share of the receiver timeout makes the receiver slow. */
export const SLOW_ATTEMPT_SHARE = 0.5;

/**
 * How long a slow receiver is held, in receiver timeouts (10 s with the
 * deployed timeout): a receiver that hangs is tried once every two timeouts
 * or so, holding one slot half the time, and a delivery that timed out
 * retries about when its schedule says (5 s, then 30 s, …).
 */
export const HOLD_TIMEOUTS = 1;

/** Beyond the receiver timeout, how long a turn's lease lasts: the attempt's own reads and writes. */
export const TURN_MARGIN_MS = 5_000;

/** SQS's longest message timer: a message put back comes again at most this long after. */
export const MAX_PUT_BACK_SECONDS = 900;

/** Whether an attempt shows the receiver slow: a timeout, or an answer that took half of one. */
export function isSlowAttempt(
  result: { kind: 'response' } | { kind: 'error'; error: string },
  durationMs: number,
  timeoutMs: number,
): boolean {
  if (result.kind === 'error' && result.error === 'timeout') return true;
  return durationMs >= timeoutMs * SLOW_ATTEMPT_SHARE;
}

/** Until when a receiver that was just slow is held. */
export function holdUntil(now: Date, timeoutMs: number): string {
  return new Date(now.getTime() + HOLD_TIMEOUTS * timeoutMs).toISOString();
}

/** Until when a delivery that took a held receiver's turn keeps it. */
export function turnUntil(now: Date, timeoutMs: number): string {
  return new Date(now.getTime() + timeoutMs + TURN_MARGIN_MS).toISOString();
}

/**
 * How long a message for a held receiver waits before it comes again: to
 * the hold's end (or the turn's), plus up to half a timeout of jitter so
 * the waiting messages do not all come at once; at least 1 s.
 */
export function putBackSeconds(
  slowUntil: string,
  now: Date,
  timeoutMs: number,
  random: () => number,
): number {
  const left = Math.max(0, Date.parse(slowUntil) - now.getTime());
  const jitter = random() * timeoutMs * 0.5;
  return Math.min(MAX_PUT_BACK_SECONDS, Math.max(1, Math.ceil((left + jitter) / 1000)));
}
