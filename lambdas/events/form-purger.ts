import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { deleteFormUploads } from '#aws/uploads.ts';
import { errorFields, log } from '#log';
import { purgeFormPartition } from '#store/forms.ts';

/**
 * Runs on the stream record of a deleted form (filter REMOVED_FORM_PATTERN):
 * removes what is left of it, the rest of its partition and its uploads.
 * Both steps are idempotent, so a retried record only finishes the job.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const batchItemFailures: DynamoDBBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const formId = record.dynamodb?.OldImage?.id?.S;
    if (!formId) continue;
    try {
      const items = await purgeFormPartition(formId);
      const uploads = await deleteFormUploads(formId);
      log.info('deleted form purged', { formId, items, uploads });
    } catch (error) {
      log.error('purge of a deleted form failed', { formId, ...errorFields(error) });
      batchItemFailures.push({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' });
    }
  }
  return { batchItemFailures };
}
