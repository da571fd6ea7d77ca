import type { DynamoDBRecord } from 'aws-lambda';
import { deleteFormUploads } from '#aws/uploads.ts';
import { errorFields, log } from '#log';
import { count } from '#metrics';
import { purgeFormPartition } from '#store/forms.ts';
import { dispatchedWorker } from './batch-worker.ts';

/**
 * Runs on the stream record of a deleted form (filter REMOVED_FORM_PATTERN),
 * handed on by the stream dispatcher with the form's `id`: removes what is
 * left of it, the rest of its partition and its uploads. Both steps are
 * idempotent, so a retried record only finishes the job.
 */
export const handler = dispatchedWorker(() => purgeRemovedForm);

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
