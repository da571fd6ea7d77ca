import { enqueueInOrder } from '#aws/queues.ts';
import { type PendingSweepEvent, pendingSweepRecord } from '#domain/pending-sweep.ts';
import { log } from '#log';
import { formKey } from '#store/keys.ts';

/**
 * Invoked by the form's one-time pending sweep schedule, at the expiry of
 * its oldest post still waiting for confirmation
 * (docs/submit.md#confirm-by-email): hands the form to the pending purger,
 * which deletes what expired (each counted in `notConfirmed`) and schedules
 * the next sweep or removes it. Through the purger's FIFO queue, in the
 * group of the form's posts, so one form's purges never run at once. A
 * throw makes the Scheduler retry (then its DLQ).
 */
export async function handler(event: PendingSweepEvent): Promise<{ handedOn: boolean }> {
  if (typeof event?.formId !== 'string' || typeof event?.at !== 'string') {
    log.error('pending sweeper got an event it cannot read', { event });
    return { handedOn: false };
  }
  const { formId, at } = event;
  await enqueueInOrder('pendingPurges', [pendingSweepRecord({ formId, at }, formKey(formId).pk)]);
  log.info('pending sweep handed to the purger', { formId, at });
  return { handedOn: true };
}
