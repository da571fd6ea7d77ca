import { deleteFilesOf } from '#aws/uploads.ts';
import { config } from '#config';
import { ServiceError } from '#domain/errors.ts';
import { spamExpired, spamExpiredUpTo } from '#domain/spam-rules.ts';
import { errorFields, log } from '#log';
import { count } from '#metrics';
import { walkFolder } from '#store/folder-reads.ts';
import { editSubmissions, SUBMISSIONS_PER_TRANSACTION } from '#store/submission-changes.ts';
import { oncePerForm } from './batch-worker.ts';

/**
 * Runs when a form stores spam (filter INSERTED_SPAM_PATTERN, handed on by
 * the stream dispatcher with the submission's `formId`): deletes that
 * form's spam older than `spamRetentionDays` (from when the owner moved it
 * to spam, or else from its receipt: `spamExpired`), with its files, in
 * the same counted transactions as a bulk DELETE, so folder counters stay
 * exact. Spam only piles up while spam keeps arriving, and every arrival
 * clears what has expired, so a form's stored spam stays within the
 * retention window (and the monthly spam cap bounds that window).
 * Idempotent: a retried record finds nothing left to delete.
 *
 * A batch purges each form once: every record of that form shares the
 * outcome, so when the purge fails each of them is a failed record.
 */
export const handler = oncePerForm(
  (record) => record.dynamodb?.NewImage?.formId?.S,
  (formId, _record, now) =>
    purgeExpiredSpam(formId, spamExpiredUpTo(now, config.spamRetentionDays)),
);

/** Deletes the form's expired spam; throws (after logging) when that failed. */
async function purgeExpiredSpam(formId: string, upTo: string): Promise<void> {
  try {
    const { count: deleted } = await editSubmissions(
      formId,
      walkFolder(formId, 'spam', { createdUpTo: upTo, batchSize: SUBMISSIONS_PER_TRANSACTION }),
      (submission) => (spamExpired(submission, upTo) ? 'delete' : undefined),
      { afterCommit: deleteFilesOf },
    );
    if (deleted > 0) {
      log.info('expired spam deleted', { formId, count: deleted, receivedUpTo: upTo });
      count('ExpiredSpamDeleted', deleted);
    }
  } catch (error) {
    // A form deleted meanwhile has nothing left to purge: its own purger removes the rest.
    if (error instanceof ServiceError && error.status === 404) return;
    log.error('purge of expired spam failed', { formId, ...errorFields(error) });
    throw error;
  }
}
