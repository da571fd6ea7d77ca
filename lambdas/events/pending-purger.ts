import { deleteFilesOf } from '#aws/uploads.ts';
import { config } from '#config';
import { isPending } from '#domain/confirmation-state.ts';
import { ServiceError } from '#domain/errors.ts';
import type { Submission } from '#domain/submission-model.ts';
import { hourOf, NOT_CONFIRMED_COUNTER } from '#domain/summary-counters.ts';
import { errorFields, log } from '#log';
import { count } from '#metrics';
import { walkFolder } from '#store/folder-reads.ts';
import { editSubmissions, SUBMISSIONS_PER_TRANSACTION } from '#store/submission-changes.ts';
import { addToHour } from '#store/summary-buckets.ts';
import { dispatchedWorker } from './batch-worker.ts';

/**
 * Runs when a form stores a post waiting for confirmation (filter
 * INSERTED_PENDING_PATTERN, handed on by the stream dispatcher with the
 * submission's `formId`): deletes the form's submissions still pending
 * `confirmLinkSeconds` after their post (their link no longer works), with
 * their files, in the same counted transactions as a bulk DELETE, and adds
 * each to the summary's `notConfirmed` in the hour it was posted: all that
 * is left of it (docs/submit.md#confirm-by-email). Pending posts pile up
 * only while pending posts arrive, and every arrival clears what expired
 * (until then an expired one still shows in the `pending` folder, and its
 * link says it expired). Idempotent: a retried record finds nothing left
 * to delete.
 */
export const handler = dispatchedWorker(() => {
  const upTo = new Date(Date.now() - config.confirmLinkSeconds * 1000).toISOString();
  const purges = new Map<string, Promise<void>>();
  return async (record) => {
    const formId = record.dynamodb?.NewImage?.formId?.S;
    if (!formId) return;
    let purge = purges.get(formId);
    if (!purge) {
      purge = purgeUnconfirmed(formId, upTo);
      purges.set(formId, purge);
    }
    await purge;
  };
});

async function purgeUnconfirmed(formId: string, upTo: string): Promise<void> {
  try {
    const { count: deleted } = await editSubmissions(
      formId,
      walkFolder(formId, 'pending', { createdUpTo: upTo, batchSize: SUBMISSIONS_PER_TRANSACTION }),
      // Still pending and posted before the bound: a click meanwhile takes it out of reach.
      (submission) => (isPending(submission) && submission.createdAt < upTo ? 'delete' : undefined),
      {
        afterCommit: async (gone) => {
          await countNotConfirmed(formId, gone);
          await deleteFilesOf(gone);
        },
      },
    );
    if (deleted > 0) {
      log.info('unconfirmed submissions deleted', { formId, count: deleted, postedBefore: upTo });
      count('UnconfirmedDeleted', deleted);
    }
  } catch (error) {
    // A form deleted meanwhile has nothing left to purge: its own purger removes the rest.
    if (error instanceof ServiceError && error.status === 404) return;
    log.error('purge of unconfirmed submissions failed', { formId, ...errorFields(error) });
    throw error;
  }
}

/** One `notConfirmed` per deleted submission, in its post's hour; a failure is logged, not retried. */
async function countNotConfirmed(formId: string, gone: readonly Submission[]): Promise<void> {
  const perHour = new Map<string, number>();
  for (const submission of gone) {
    const hour = hourOf(submission.createdAt);
    perHour.set(hour, (perHour.get(hour) ?? 0) + 1);
  }
  for (const [hour, n] of perHour) {
    await addToHour(formId, hour, { [NOT_CONFIRMED_COUNTER]: n }).catch((error: unknown) =>
      log.error('unconfirmed submissions not counted', { formId, ...errorFields(error) }),
    );
  }
}
