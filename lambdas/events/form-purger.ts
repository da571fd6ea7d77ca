import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type {
  Context,
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
} from 'aws-lambda';
import { deleteFormUploads } from '#aws/uploads.ts';
import { errorFields, log } from '#log';
import { count, flush } from '#metrics';
import { purgeFormPartition } from '#store/forms.ts';

/**
 * Runs on the stream record of a deleted form (filter REMOVED_FORM_PATTERN):
 * removes what is left of it, the rest of its partition and its uploads.
 * Both steps are idempotent, so a retried record only finishes the job.
 *
 * Records are purged one after another; a failed record is reported in
 * `batchItemFailures` (the stream retries from it). When every record of the
 * batch fails, Powertools throws instead, which the stream treats as a
 * failed invocation: retried, bisected, then sent to the on-failure queue.
 */
export async function handler(
  event: DynamoDBStreamEvent,
  context?: Context,
): Promise<DynamoDBBatchResponse> {
  try {
    // A processor per invocation: it holds the batch's results while it runs.
    return await processPartialResponse(
      event,
      purgeRemovedForm,
      new BatchProcessor(EventType.DynamoDBStreams),
      { context, processInParallel: false },
    );
  } finally {
    flush();
  }
}

async function purgeRemovedForm(record: DynamoDBRecord): Promise<void> {
  const formId = record.dynamodb?.OldImage?.id?.S;
  if (!formId) return;
  try {
    const items = await purgeFormPartition(formId);
    const uploads = await deleteFormUploads(formId);
    log.info('deleted form purged', { formId, items, uploads });
    count('FormPurged');
  } catch (error) {
    log.error('purge of a deleted form failed', { formId, ...errorFields(error) });
    throw error;
  }
}
