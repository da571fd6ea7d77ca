import { deleteFilesOf } from '#aws/uploads.ts';
import { config } from '#config';
import { ServiceError } from '#domain/errors.ts';
import { keptFrom } from '#domain/retention.ts';
import { errorFields, log } from '#log';
import { count } from '#metrics';
import { walkFolder } from '#store/folder-reads.ts';
import { editSubmissions, SUBMISSIONS_PER_TRANSACTION } from '#store/submission-changes.ts';

/**
 * Deletes a form's submissions past its `retentionDays`
 * (docs/submissions.md#retention), with their files, in the same counted
 * transactions as a bulk DELETE, so folder counters stay exact. Reads leave
 * such submissions out already; this frees the space. Idempotent: a retried
 * record finds nothing left to delete. Throws (after logging) when it failed.
 */
export async function purgeExpired(
  formId: string,
  retentionDays: number | null,
  now: Date,
): Promise<void> {
  const upTo = keptFrom(retentionDays, now, config.retentionDaySeconds);
  if (!upTo) return;
  try {
    let deleted = 0;
    // `all` and `spam` together hold every submission once.
    for (const folder of ['all', 'spam'] as const) {
      const outcome = await editSubmissions(
        formId,
        walkFolder(formId, folder, { createdUpTo: upTo, batchSize: SUBMISSIONS_PER_TRANSACTION }),
        // The walk's bound is inclusive; a submission received at `upTo` is still kept.
        (submission) => (submission.createdAt < upTo ? 'delete' : undefined),
        { afterCommit: deleteFilesOf },
      );
      deleted += outcome.count;
    }
    if (deleted > 0) {
      log.info('submissions past retention deleted', {
        formId,
        count: deleted,
        receivedBefore: upTo,
      });
      count('RetentionDeleted', deleted);
    }
  } catch (error) {
    // A form deleted meanwhile has nothing left to purge: its own purger removes the rest.
    if (error instanceof ServiceError && error.status === 404) return;
    log.error('purge of submissions past retention failed', { formId, ...errorFields(error) });
    throw error;
  }
}
