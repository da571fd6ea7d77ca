import { dispatchedWorker } from './batch-worker.ts';
import { purgeUnconfirmed, unconfirmedUpTo } from './unconfirmed-purge.ts';

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
 * link says it expired; a form with `retentionDays` is also swept of them on
 * its retention schedule). Idempotent: a retried record finds nothing left
 * to delete.
 */
export const handler = dispatchedWorker(() => {
  const upTo = unconfirmedUpTo(new Date());
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
