import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { deleteFilesOf } from '#aws/uploads.ts';
import { config } from '#config';
import { ServiceError } from '#domain/errors.ts';
import { spamExpiredUpTo } from '#domain/submit-rules.ts';
import { errorFields, log } from '#log';
import { walkFolder } from '#store/folder-reads.ts';
import { editSubmissions, SUBMISSIONS_PER_TRANSACTION } from '#store/submission-changes.ts';

/**
 * Runs when a form stores spam (filter INSERTED_SPAM_PATTERN): deletes that
 * form's spam received more than `spamRetentionDays` ago, with its files, in
 * the same counted transactions as a bulk DELETE, so folder counters stay
 * exact. Spam only piles up while spam keeps arriving, and every arrival
 * clears what has expired, so a form's stored spam stays within the
 * retention window (and the monthly spam cap bounds that window).
 * Idempotent: a retried record finds nothing left to delete.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const batchItemFailures: DynamoDBBatchResponse['batchItemFailures'] = [];
  const upTo = spamExpiredUpTo(new Date(), config.spamRetentionDays);
  const done = new Map<string, boolean>();
  for (const record of event.Records) {
    const formId = record.dynamodb?.NewImage?.formId?.S;
    if (!formId) continue;
    if (!done.has(formId)) done.set(formId, await purgeExpiredSpam(formId, upTo));
    if (!done.get(formId)) {
      batchItemFailures.push({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' });
    }
  }
  return { batchItemFailures };
}

async function purgeExpiredSpam(formId: string, upTo: string): Promise<boolean> {
  try {
    const { count } = await editSubmissions(
      formId,
      walkFolder(formId, 'spam', { createdUpTo: upTo, batchSize: SUBMISSIONS_PER_TRANSACTION }),
      (submission) => (submission.isSpam ? 'delete' : undefined),
      { afterCommit: deleteFilesOf },
    );
    if (count > 0) log.info('expired spam deleted', { formId, count, receivedUpTo: upTo });
    return true;
  } catch (error) {
    // A form deleted meanwhile has nothing left to purge: its own purger removes the rest.
    if (error instanceof ServiceError && error.status === 404) return true;
    log.error('purge of expired spam failed', { formId, ...errorFields(error) });
    return false;
  }
}
