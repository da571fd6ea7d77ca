import type { DynamoDBRecord } from 'aws-lambda';
import { enqueue, enqueueInOrder, enqueueLater } from '#aws/queues.ts';
import { config } from '#config';
import { isPending } from '#domain/confirmation-state.ts';
import {
  type Channel,
  channelsFor,
  type EmailJob,
  sheetsMessage,
  type WebhookJob,
} from '#domain/delivery-channels.ts';
import {
  type DeliveryEvent,
  type DeliveryTarget,
  deliveryIdOf,
  pendingDelivery,
} from '#domain/delivery-log.ts';
import { submitterAddress } from '#domain/email-messages.ts';
import { lateAt } from '#domain/file-scans.ts';
import { type ChatKind, isChatKind } from '#domain/integrations.ts';
import type { LateCheckJob } from '#domain/scan-events.ts';
import type { Submission } from '#domain/submission-model.ts';
import { webhookMessageId } from '#domain/webhook-signature.ts';
import { log } from '#log';
import { getDelivery, putPendingDelivery } from '#store/deliveries.ts';
import { type FormContext, readFormContext } from '#store/delivery-context.ts';
import { submissionOfImage } from '#store/stream-images.ts';

/**
 * The delivery fan-out, run by the stream dispatcher in its own process on
 * every inserted submission (INSERTED_SUBMISSION_PATTERN, test submissions
 * included; and by the replayer on each submission of a replayed range):
 * one queue message per channel that applies, carrying ids only. The
 * submission comes from the record's image; each form's settings, team,
 * webhook and integrations are read once per batch (a form that receives
 * many posts at once, or a seeded one, costs one read a batch). A retried
 * record sends its messages again; the workers send each webhook delivery
 * and email once all the same (the delivery log and the email marks), and
 * the `webhook-id` is the submission's. Each Slack and Discord integration
 * is one more message on the webhooks queue, with its own delivery in the
 * log (docs/integrations.md#slack-and-discord). A Google Sheets integration
 * is one message on the FIFO `sheets` queue, grouped by form
 * (docs/integrations.md#sending-rows), sent in the stream's order. Records
 * are handled at once otherwise: no submission's announcement depends on
 * another's. Made once per invocation: it holds the batch's form reads.
 */
export function submissionAnnouncer(): (record: DynamoDBRecord) => Promise<void> {
  const forms = new Map<string, Promise<FormContext | undefined>>();
  const sheetTurns = new Map<string, Promise<void>>();
  return async (record) => {
    const image = record.dynamodb?.NewImage;
    if (!image) return;
    const { submission, hints } = submissionOfImage(image as StreamImage);
    const formId = submission.formId;
    const submissionId = submission.id;
    // A form's Sheets messages are sent in the stream's order (the FIFO queue keeps the
    // order it is given): this record's turn is taken before the first await, as the
    // records start in order, and waits for the form's previous record's.
    const previousTurn = sheetTurns.get(formId) ?? Promise.resolve();
    const turn = Promise.withResolvers<void>();
    sheetTurns.set(formId, turn.promise);
    try {
      await announce();
    } finally {
      turn.resolve();
    }

    async function announce(): Promise<void> {
      let read = forms.get(formId);
      if (!read) {
        read = readFormContext(formId);
        forms.set(formId, read);
      }
      const context = await read;
      if (!context) return; // the form is gone: nothing to announce
      const { form, team } = context;
      // Files late for their verdict are checked once, from the post (not again at the click).
      const stored = record.eventName === 'INSERT';
      if (isPending(submission)) {
        // Held for its visitor's confirmation: only the confirmation email, under its bounds
        // (docs/delivery.md#confirmation-emails); the click's write announces the rest.
        await enqueue('emails', [{ formId, submissionId, kind: 'confirm' } satisfies EmailJob]);
        if (stored && (submission.scanPending ?? 0) > 0) await checkScanLater(submission);
        log.info('submission held for confirmation', { formId, submissionId });
        return;
      }
      const channels = channelsFor({
        form,
        plan: team.plan,
        webhookConnected: context.webhook !== undefined,
        chats: context.integrations.map((integration) => integration.kind).filter(isChatKind),
        sheets: context.integrations.some((integration) => integration.kind === 'sheets'),
        spam: submission.isSpam,
        spamReason: submission.spamReason,
        submitterFound: submitterAddress(submission, form, hints) !== undefined,
      });
      const sends: WebhookJob[] = [];
      for (const channel of channels.filter(isDelivered)) {
        const connectedAt =
          channel === 'webhook'
            ? context.webhook?.createdAt
            : context.integrations.find((integration) => integration.kind === channel)?.connectedAt;
        if (await queuedOnce(formId, submissionId, channel, connectedAt)) {
          sends.push(
            channel === 'webhook' ? { formId, submissionId } : { formId, submissionId, channel },
          );
        }
      }
      if (sends.length > 0) await enqueue('webhooks', sends);
      if (channels.includes('sheets')) {
        const sheets = context.integrations.find((integration) => integration.kind === 'sheets');
        if (await queuedOnce(formId, submissionId, 'sheets', sheets?.connectedAt)) {
          await previousTurn;
          await enqueueInOrder('sheets', [sheetsMessage({ formId, submissionId })]);
        }
      }
      const emails = channels
        .filter((channel) => channel === 'notification' || channel === 'autoreply')
        .map((kind): EmailJob => ({ formId, submissionId, kind }));
      if (emails.length > 0) await enqueue('emails', emails);
      if (stored && (submission.scanPending ?? 0) > 0) await checkScanLater(submission);
      if (channels.length > 0) log.info('submission announced', { formId, submissionId, channels });
    }
  };
}

type StreamImage = Parameters<typeof submissionOfImage>[0];

const isDelivered = (channel: Channel): channel is 'webhook' | ChatKind =>
  channel === 'webhook' || isChatKind(channel);

/**
 * A submission stored with files waiting for their malware scan: a check on
 * the scanResults queue, received when the files would be late
 * (`scanLateSeconds`, 30 minutes; a message timer waits 15 minutes at most,
 * and the worker hides it again for the rest), counts those still waiting
 * (docs/uploads-and-pages.md#malware-scanning).
 */
async function checkScanLater(submission: Submission): Promise<void> {
  const due = lateAt(submission.createdAt, config.scanLateSeconds);
  const job: LateCheckJob = {
    check: 'late',
    formId: submission.formId,
    submissionId: submission.id,
  };
  await enqueueLater('scanResults', job, Math.max(0, (due - Date.now()) / 1000));
}

/**
 * Records the pending delivery and says whether to queue its message:
 * queued once, as a retried fan-out queues again only a delivery nothing
 * has tried yet (its first message may never have been sent), so no second
 * retry chain starts.
 */
export async function queuedOnce(
  formId: string,
  submissionId: string,
  target: DeliveryTarget & ('webhook' | ChatKind | 'sheets'),
  connectedAt: string | undefined,
  event: DeliveryEvent = 'submission.created',
): Promise<boolean> {
  const now = new Date();
  const deliveryId = deliveryIdOf(submissionId, event);
  const delivery = pendingDelivery({
    formId,
    submissionId,
    channel: target === 'webhook' ? undefined : target,
    event,
    webhookId: webhookMessageId(deliveryId),
    webhookConnectedAt: connectedAt,
    now,
  });
  if (await putPendingDelivery(delivery, now)) return true;
  const stored = await getDelivery(formId, deliveryId, target);
  return stored?.status === 'pending' && stored.attempts.length === 0;
}
