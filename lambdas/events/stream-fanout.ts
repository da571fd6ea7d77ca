import { enqueue } from '#aws/queues.ts';
import { channelsFor, type EmailJob, type WebhookJob } from '#domain/delivery-channels.ts';
import { pendingDelivery } from '#domain/delivery-log.ts';
import { submitterAddress } from '#domain/email-messages.ts';
import { webhookMessageId } from '#domain/webhook-signature.ts';
import { log } from '#log';
import { getDelivery, putPendingDelivery } from '#store/deliveries.ts';
import { type FormContext, readFormContext } from '#store/delivery-context.ts';
import { submissionOfImage } from '#store/stream-images.ts';
import { streamWorker } from './batch-worker.ts';

/**
 * Runs on every inserted submission (filter INSERTED_SUBMISSION_PATTERN,
 * test submissions included): one queue message per channel that applies,
 * carrying ids only. The submission comes from the record's image; each
 * form's settings, team and webhook are read once per batch (a form that
 * receives many posts at once, or a seeded one, costs one read a batch). A
 * retried record sends its messages again; the workers send each webhook
 * delivery and email once all the same (the delivery log and the email
 * marks), and the `webhook-id` is the submission's. Records are handled at
 * once: no submission's announcement depends on another's.
 */
export const handler = streamWorker(
  () => {
    const forms = new Map<string, Promise<FormContext | undefined>>();
    return async (record) => {
      const image = record.dynamodb?.NewImage;
      if (!image) return;
      const { submission, hints } = submissionOfImage(image as StreamImage);
      const formId = submission.formId;
      const submissionId = submission.id;
      let read = forms.get(formId);
      if (!read) {
        read = readFormContext(formId);
        forms.set(formId, read);
      }
      const context = await read;
      if (!context) return; // the form is gone: nothing to announce
      const { form, team } = context;
      const channels = channelsFor({
        form,
        plan: team.plan,
        webhookConnected: context.webhook !== undefined,
        spam: submission.isSpam,
        submitterFound: submitterAddress(submission, form, hints) !== undefined,
      });
      if (channels.includes('webhook')) {
        const webhookId = webhookMessageId(submissionId);
        const now = new Date();
        const delivery = pendingDelivery({
          formId,
          submissionId,
          webhookId,
          webhookConnectedAt: context.webhook?.createdAt,
          now,
        });
        // Queued once: a retried fan-out queues again only a delivery nothing has tried yet
        // (its first message may never have been sent), so no second retry chain starts.
        if ((await putPendingDelivery(delivery, now)) || (await untried(formId, submissionId))) {
          await enqueue('webhooks', [{ formId, submissionId } satisfies WebhookJob]);
        }
      }
      const emails = channels
        .filter((channel) => channel !== 'webhook')
        .map((kind): EmailJob => ({ formId, submissionId, kind }));
      if (emails.length > 0) await enqueue('emails', emails);
      if (channels.length > 0) log.info('submission announced', { formId, submissionId, channels });
    };
    // Each submission's messages are its own: the batch is announced at once.
  },
  { parallel: true },
);

type StreamImage = Parameters<typeof submissionOfImage>[0];

async function untried(formId: string, submissionId: string): Promise<boolean> {
  const delivery = await getDelivery(formId, submissionId);
  return delivery?.status === 'pending' && delivery.attempts.length === 0;
}
