import { enqueue } from '#aws/queues.ts';
import { channelsFor, type EmailJob, type WebhookJob } from '#domain/delivery-channels.ts';
import { pendingDelivery } from '#domain/delivery-log.ts';
import { submitterAddress } from '#domain/email-messages.ts';
import { webhookMessageId } from '#domain/webhook-signature.ts';
import { log } from '#log';
import { putPendingDelivery } from '#store/deliveries.ts';
import { readDeliveryContext } from '#store/delivery-context.ts';
import { streamWorker } from './batch-worker.ts';

/**
 * Runs on every inserted submission (filter INSERTED_SUBMISSION_PATTERN,
 * test submissions included): one queue message per channel that applies,
 * carrying ids only. A retried record sends its messages again; the workers
 * send each webhook delivery and email once all the same (the delivery log
 * and the email marks), and the `webhook-id` is the submission's.
 */
export const handler = streamWorker(() => async (record) => {
  const image = record.dynamodb?.NewImage;
  const formId = image?.formId?.S;
  const submissionId = image?.id?.S;
  if (!formId || !submissionId) return;
  const context = await readDeliveryContext(formId, submissionId);
  if (!context) return; // deleted before it could be announced: nothing to send
  const { form, team, submission } = context;
  const channels = channelsFor({
    form,
    plan: team.plan,
    webhookConnected: context.webhook !== undefined,
    spam: submission.isSpam,
    submitterFound: submitterAddress(submission, form, context.hints) !== undefined,
  });
  if (channels.includes('webhook')) {
    const webhookId = webhookMessageId(submissionId);
    const now = new Date();
    await putPendingDelivery(pendingDelivery({ formId, submissionId, webhookId, now }), now);
    await enqueue('webhooks', [{ formId, submissionId } satisfies WebhookJob]);
  }
  const emails = channels
    .filter((channel) => channel !== 'webhook')
    .map((kind): EmailJob => ({ formId, submissionId, kind }));
  if (emails.length > 0) await enqueue('emails', emails);
  log.info('submission announced', { formId, submissionId, channels });
});
