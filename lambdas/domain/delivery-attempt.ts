import type { Delivery, DeliveryAttempt } from './delivery-log.ts';
import {
  type AttemptOutcome,
  type AttemptResult,
  classifyAttempt,
  nextDelaySeconds,
} from './webhook-delivery.ts';

/**
 * One attempt of a delivery, whatever it sent (a webhook, a chat message, a
 * sheet's row), as the log records it and what follows it
 * (docs/delivery.md#retries): its verdict, the delay before the next try
 * (the schedule's next, or a longer `Retry-After`), or none when the retry
 * window is spent (`givingUp`: the message goes to the dead-letter queue).
 */
export function attemptOf(input: {
  delivery: Delivery;
  attempt: number;
  result: AttemptResult;
  now: Date;
  schedule: readonly number[];
  random: () => number;
  durationMs: number;
  responseBody: string | null;
}): { record: DeliveryAttempt; verdict: AttemptOutcome; delay?: number; givingUp: boolean } {
  const { delivery, attempt, result, now } = input;
  const verdict = classifyAttempt(result);
  const delay =
    verdict === 'retry'
      ? nextDelaySeconds({
          attempt,
          schedule: input.schedule,
          retryAfter: result.kind === 'response' ? result.retryAfter : undefined,
          now,
          random: input.random,
          elapsedSeconds: secondsSinceFirstAttempt(delivery, attempt, now),
        })
      : undefined;
  const record: DeliveryAttempt = {
    number: attempt,
    at: now.toISOString(),
    outcome: verdict === 'delivered' ? 'delivered' : delay !== undefined ? 'retrying' : 'failed',
    responseStatus: result.kind === 'response' ? result.status : null,
    durationMs: input.durationMs,
    responseBody: input.responseBody,
    error: result.kind === 'error' ? `${result.error}: ${result.message}` : null,
    nextAttemptAt:
      delay !== undefined ? new Date(now.getTime() + delay * 1000).toISOString() : null,
  };
  return { record, verdict, delay, givingUp: verdict === 'retry' && delay === undefined };
}

/** How long this sending has been going: since its attempt number 1 (a manual retry starts anew). */
function secondsSinceFirstAttempt(delivery: Delivery, attempt: number, now: Date): number {
  if (attempt <= 1) return 0;
  const first = delivery.attempts.findLast((each) => each.number === 1);
  return first ? (now.getTime() - Date.parse(first.at)) / 1000 : 0;
}
