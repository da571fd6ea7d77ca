import type { DynamoDBRecord } from 'aws-lambda';
import { enqueue } from '#aws/queues.ts';
import { isPending } from '#domain/confirmation-state.ts';
import { type EmailJob, scanChannelsFor, type WebhookJob } from '#domain/delivery-channels.ts';
import { isChatKind } from '#domain/integrations.ts';
import { log } from '#log';
import { type FormContext, readFormContext } from '#store/delivery-context.ts';
import { submissionOfImage } from '#store/stream-images.ts';
import { queuedOnce } from './submission-fanout.ts';

const EVENT = 'submission.files_scanned';

/**
 * Announces a submission whose last pending file got its malware scan's
 * verdict (SCAN_SETTLED_PATTERN: the write that brought `scanPending` to 0,
 * exactly one stream record), run by the stream dispatcher in its own
 * process as the delivery fan-out is (docs/delivery.md#files-scanned): a
 * `submission.files_scanned` delivery to the webhook and to each Slack or
 * Discord integration, each with a delivery log entry of its own (its id
 * the submission's with version 8, so its `webhook-id` is its own), and,
 * when a file was infected, the `malware` email to the notification's
 * recipients. A record handled again queues again only what nothing has
 * tried yet, and the email is sent once (its mark). Made once per
 * invocation: it holds the batch's form reads.
 */
export function scanAnnouncer(): (record: DynamoDBRecord) => Promise<void> {
  const forms = new Map<string, Promise<FormContext | undefined>>();
  return async (record) => {
    const image = record.dynamodb?.NewImage;
    if (!image) return;
    const { submission } = submissionOfImage(image as Parameters<typeof submissionOfImage>[0]);
    const { formId, id: submissionId } = submission;
    // Waiting for its visitor's confirmation: nobody hears of it yet; the click announces the
    // verdicts in then (CONFIRMED_SCANNED_PATTERN), or the last verdict after the click does
    // (docs/submit.md#confirm-by-email).
    if (isPending(submission)) return;
    let read = forms.get(formId);
    if (!read) {
      read = readFormContext(formId);
      forms.set(formId, read);
    }
    const context = await read;
    if (!context) return; // the form is gone
    const channels = scanChannelsFor({
      plan: context.team.plan,
      webhookConnected: context.webhook !== undefined,
      chats: context.integrations.map((integration) => integration.kind).filter(isChatKind),
      spam: submission.isSpam,
      spamReason: submission.spamReason,
      infected: (submission.meta.files ?? []).some((file) => file.scan === 'infected'),
    });
    const sends: WebhookJob[] = [];
    for (const channel of channels) {
      if (channel === 'malware') continue;
      const connectedAt =
        channel === 'webhook'
          ? context.webhook?.createdAt
          : context.integrations.find((integration) => integration.kind === channel)?.connectedAt;
      if (await queuedOnce(formId, submissionId, channel, connectedAt, EVENT)) {
        sends.push({
          formId,
          submissionId,
          event: EVENT,
          ...(channel === 'webhook' ? {} : { channel }),
        });
      }
    }
    if (sends.length > 0) await enqueue('webhooks', sends);
    if (channels.includes('malware')) {
      await enqueue('emails', [{ formId, submissionId, kind: 'malware' } satisfies EmailJob]);
    }
    if (channels.length > 0)
      log.info('files scanned announced', { formId, submissionId, channels });
  };
}
