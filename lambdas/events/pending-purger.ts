import { cancelPendingSweep, schedulePendingSweep } from '#aws/scheduler.ts';
import { config } from '#config';
import { nextPendingSweepAt } from '#domain/pending-sweep.ts';
import { errorFields, log } from '#log';
import { oldestPostIn } from '#store/folder-reads.ts';
import { oncePerForm } from './batch-worker.ts';
import { purgeUnconfirmed, unconfirmedUpTo } from './unconfirmed-purge.ts';

/**
 * Runs when a form stores a post waiting for confirmation (filter
 * INSERTED_PENDING_PATTERN, handed on by the stream dispatcher with the
 * submission's `formId`), and when the form's pending sweep comes due (the
 * pending sweeper hands it the form the same way): deletes the form's
 * submissions still pending `confirmLinkSeconds` after their post (their
 * link no longer works), with their files, in the same counted transactions
 * as a bulk DELETE, and adds each to the summary's `notConfirmed` in the
 * hour it was posted: all that is left of it
 * (docs/submit.md#confirm-by-email). Then it moves the form's one pending
 * sweep schedule to the expiry of the oldest post still waiting, or removes
 * it when none waits: a quiet form's last post is deleted on time too.
 * Idempotent: a retried record finds nothing left to delete and writes the
 * same schedule.
 */
export const handler = oncePerForm(
  (record) => record.dynamodb?.NewImage?.formId?.S,
  async (formId, _record, now) => {
    await purgeUnconfirmed(formId, unconfirmedUpTo(now));
    await scheduleNextSweep(formId);
  },
);

/** The form's pending sweep at its oldest waiting post's expiry, or none; a failure fails the records. */
async function scheduleNextSweep(formId: string): Promise<void> {
  try {
    const oldest = await oldestPostIn(formId, 'pending');
    if (oldest) {
      await schedulePendingSweep(
        formId,
        nextPendingSweepAt(oldest, config.confirmLinkSeconds, new Date()),
      );
    } else {
      await cancelPendingSweep(formId);
    }
  } catch (error) {
    log.error('next pending sweep not scheduled', { formId, ...errorFields(error) });
    throw error;
  }
}
