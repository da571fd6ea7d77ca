import type { DynamoDBRecord } from 'aws-lambda';
import { deleteFilesOf } from '#aws/uploads.ts';
import { config } from '#config';
import { ServiceError } from '#domain/errors.ts';
import { keptFrom } from '#domain/retention.ts';
import { errorFields, log } from '#log';
import { count } from '#metrics';
import { walkFolder } from '#store/folder-reads.ts';
import { editSubmissions, SUBMISSIONS_PER_TRANSACTION } from '#store/submission-changes.ts';
import { dispatchedWorker } from './batch-worker.ts';

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

/**
 * A dispatched worker that runs `perForm` once per form of the batch (the
 * form `formIdOf` names; records naming none are skipped), with the form's
 * newest record of the batch: its records come in the stream's order (one
 * FIFO group per form), so two quick changes apply as the second left the
 * form. Every record of that form shares the outcome, so when it fails each
 * of them is a failed record.
 */
export function oncePerForm(
  formIdOf: (record: DynamoDBRecord) => string | undefined,
  perForm: (formId: string, record: DynamoDBRecord, now: Date) => Promise<void>,
) {
  return dispatchedWorker((batch) => {
    const now = new Date();
    const newest = new Map<string, DynamoDBRecord>();
    for (const record of batch) {
      const formId = formIdOf(record);
      if (formId) newest.set(formId, record);
    }
    const runs = new Map<string, Promise<void>>();
    return async (record) => {
      const formId = formIdOf(record);
      if (!formId) return;
      let run = runs.get(formId);
      if (!run) {
        run = perForm(formId, newest.get(formId) ?? record, now);
        runs.set(formId, run);
      }
      await run;
    };
  });
}
