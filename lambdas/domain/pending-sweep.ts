/**
 * A form's pending sweep (docs/submit.md#confirm-by-email): one one-time
 * schedule per form, named after it, at the expiry of the form's oldest
 * post still waiting for confirmation, so a quiet form (no later post, no
 * `retentionDays`) still loses an unconfirmed post once its link expired.
 * Each purge of the form moves it to the next oldest post's expiry, or
 * removes it when none is left.
 */
export function pendingSweepName(formId: string): string {
  return `pending-sweep-${formId}`;
}

/** What the pending sweeper receives: the form, and the time the schedule was made for. */
export interface PendingSweepEvent {
  formId: string;
  at: string;
}

/**
 * Seconds after a post's link expires before its sweep runs: the purge
 * deletes posts made strictly before `confirmLinkSeconds` ago, so the run
 * must come a little after the expiry (the schedule's whole second, clocks
 * a little apart). Small against the 48-hour link.
 */
export const PENDING_SWEEP_GRACE_SECONDS = 5;

/**
 * When the form's next pending sweep runs (ISO): the oldest waiting post's
 * link expiry plus the grace, and never before `now` plus the grace (an
 * expiry already past: a post the index still shows after its purge).
 */
export function nextPendingSweepAt(
  oldestPostedAt: string,
  confirmLinkSeconds: number,
  now: Date,
): string {
  const grace = PENDING_SWEEP_GRACE_SECONDS * 1000;
  const due = Date.parse(oldestPostedAt) + confirmLinkSeconds * 1000 + grace;
  return new Date(Math.max(due, now.getTime() + grace)).toISOString();
}

/**
 * The record the pending sweeper hands the pending purger on its FIFO queue:
 * shaped as the stream dispatcher's (the purger reads `NewImage.formId`),
 * grouped as the form's stored posts are (`partitionKey`, the submissions'
 * partition), so a sweep and the purges of new posts of one form run one at
 * a time and their schedule writes never cross. A retried invocation of the
 * same schedule is the same record (SQS drops it within 5 minutes).
 */
export function pendingSweepRecord(event: PendingSweepEvent, partitionKey: string) {
  const eventID = `pending-sweep:${event.formId}@${event.at}`;
  return {
    body: {
      eventID,
      eventName: 'MODIFY',
      dynamodb: { Keys: { pk: { S: partitionKey } }, NewImage: { formId: { S: event.formId } } },
    },
    groupId: partitionKey.slice(0, 128),
    deduplicationId: eventID.slice(0, 128),
  };
}
