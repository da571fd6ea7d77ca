import type { SQSRecord } from 'aws-lambda';
import { config } from '#config';
import { chatAnswers, discordMessage, slackMessage } from '#domain/chat-messages.ts';
import { submissionPageUrl } from '#domain/dashboard-links.ts';
import { attemptOf } from '#domain/delivery-attempt.ts';
import type { WebhookJob } from '#domain/delivery-channels.ts';
import {
  attemptNumber,
  cancelledDelivery,
  type DeliveryTarget,
  pendingDelivery,
  sendableOrCancelled,
  withAttempt,
} from '#domain/delivery-log.ts';
import type { FormRecord } from '#domain/form-model.ts';
import type { ChatIntegration } from '#domain/integrations.ts';
import { retryWindowWords } from '#domain/retry-window.ts';
import { holdUntil, isSlowAttempt, putBackSeconds, turnUntil } from '#domain/slow-receivers.ts';
import type { Submission } from '#domain/submission-model.ts';
import type { AttemptResult } from '#domain/webhook-delivery.ts';
import { webhookPayload } from '#domain/webhook-payload.ts';
import { webhookHeaders, webhookMessageId } from '#domain/webhook-signature.ts';
import type { Webhook } from '#domain/webhooks.ts';
import { errorFields, log } from '#log';
import { count } from '#metrics';
import { sendWebhook } from '#net/webhook-sender.ts';
import { getDelivery, saveDelivery } from '#store/deliveries.ts';
import { readSubmissionContext } from '#store/delivery-context.ts';
import { markIntegration } from '#store/integrations.ts';
import {
  holdReceiver,
  type Receiver,
  releaseReceiver,
  takeReceiverTurn,
} from '#store/slow-receivers.ts';
import { markWebhook } from '#store/webhooks.ts';
import { queueWorker } from './batch-worker.ts';

/**
 * The SQS client, loaded by the first delivery that fails (a retry later, or
 * the dead letters): a cold start whose delivery succeeds does not read it.
 */
const queues = () => import('#aws/queues.ts');

/** Thrown to hand a message back to the queue; not an error of the worker. */
class RetryLater extends Error {}

/**
 * The message attribute naming the failure a dead-lettered message is the
 * redrive of (see attemptNumber); the admin redrive copies attributes back.
 */
export const DEAD_LETTERED_AFTER = 'deadLetteredAfter';

/**
 * The message attribute of a copy put back for a slow receiver (when it was
 * put back): its first receive goes on with its delivery's attempts.
 */
export const PUT_BACK_AT = 'putBackAt';

/**
 * One attempt of one submission's `submission.created` webhook
 * (docs/delivery.md#retries), read as things are now: the current URL and
 * secret, the submission as stored. A 2xx is delivered; a timeout, network error,
 * 408, 429 or 5xx is tried again after the schedule's next delay (the
 * message is hidden that long, then reported failed so SQS hands it back);
 * anything else fails at once and marks the webhook failing. The delivery
 * log numbers the attempt (attemptNumber), not the receive count: a receive
 * that sent nothing costs no retry, and the queue's maxReceiveCount leaves
 * slack for such receives (lambdas/queues.ts). So the receive after the last
 * attempt is no longer SQS's move to the dead-letter queue: once the retries
 * are spent, the worker puts the message there itself. A delivery whose
 * webhook was disconnected, whose team left Pro or whose submission was
 * deleted meanwhile ends `cancelled` with the reason, never left open.
 * A message with a `channel` is the same for a Slack or Discord
 * integration (docs/integrations.md#slack-and-discord): its own delivery
 * log, its body from chat-messages.ts, no signature. A receiver that was
 * slow lately gets one delivery at a time; the others are put back until
 * its turn, using no attempt (docs/delivery.md#a-slow-receiver).
 */
// Deliveries are independent: a slow receiver does not hold up the batch's others.
export const handler = queueWorker(() => deliver, { parallel: true });

async function deliver(record: SQSRecord): Promise<void> {
  const job = JSON.parse(record.body) as WebhookJob;
  const channel = job.channel;
  const target: DeliveryTarget = channel ?? 'webhook';
  const context = await readSubmissionContext(job.formId, job.submissionId, channel);
  if (!context) {
    // The form is gone, and its delivery log with it: nothing to record.
    log.info('webhook delivery skipped', { ...job, reason: 'form deleted' });
    return;
  }
  const outbound = channel
    ? chatOutbound(context.integrations.find((each) => each.kind === channel) as ChatIntegration)
    : webhookOutbound(context.webhook);
  const webhookId = webhookMessageId(job.submissionId);
  const now = new Date();
  const stored = await getDelivery(job.formId, job.submissionId, target);
  const delivery =
    stored ??
    pendingDelivery({
      formId: job.formId,
      submissionId: job.submissionId,
      channel,
      webhookId,
      webhookConnectedAt: outbound?.connectedAt,
      now,
    });
  // A delivered webhook is never sent again. A failed one is sent again only by a fresh
  // message (moved back from the dead-letter queue, or the retry route's); a message
  // still going round after its delivery ended sends nothing more.
  const attempt = attemptNumber(delivery, {
    receiveCount: Number(record.attributes.ApproximateReceiveCount ?? '1'),
    deadLetteredAfter: record.messageAttributes?.[DEAD_LETTERED_AFTER]?.stringValue,
    putBack: record.messageAttributes?.[PUT_BACK_AT] !== undefined,
  });
  if (attempt === undefined) return;
  const sendable = sendableOrCancelled({
    delivery,
    submission: context.submission,
    target: outbound,
    connectedAt: (each) => each.connectedAt,
    removed: channel ? 'integration_removed' : 'webhook_removed',
    pro: context.team.plan === 'pro',
    spamNow: channel ? (submission) => submission.isSpam : undefined,
  });
  if ('cancel' in sendable) {
    if (await saveDelivery(cancelledDelivery(delivery, sendable.cancel, now), stored, now)) {
      count('WebhookCancelled', 1, { reason: sendable.cancel });
      log.info('webhook delivery cancelled', { ...job, webhookId, reason: sendable.cancel });
    }
    return;
  }
  const { submission } = sendable;
  const receiver: Receiver = channel ?? 'webhook';
  const timeoutMs = config.receiverTimeoutMs;
  const held = sendable.target.slowUntil;
  if (held && !(await takeReceiverTurn(job.formId, receiver, now, turnUntil(now, timeoutMs)))) {
    // Another delivery has the slow receiver's turn, or its hold is not over: later, no attempt.
    const seconds = putBackSeconds(held, now, timeoutMs, Math.random);
    await (await queues()).sendAgainLater('webhooks', record.body, seconds, {
      ...stringAttributesOf(record),
      [PUT_BACK_AT]: now.toISOString(),
    });
    count('WebhookPutBack');
    log.info('webhook delivery put back: its receiver is slow', { ...job, webhookId, seconds });
    return;
  }

  const result = await sendWebhook({
    url: sendable.target.url,
    ...sendable.target.request(submission, context.form, webhookId, now),
    allowLoopback: config.webhookAllowLoopback,
    timeoutMs,
  });
  await noteSpeed(
    job,
    receiver,
    held !== undefined,
    isSlowAttempt(result, result.durationMs, timeoutMs),
  );
  const {
    record: attemptRecord,
    verdict,
    delay,
    givingUp,
  } = attemptOf({
    delivery,
    attempt,
    result,
    now,
    schedule: config.webhookRetryDelaysSeconds,
    random: Math.random,
    durationMs: result.durationMs,
    responseBody: result.bodyStart ?? null,
  });
  const outcome = attemptRecord.outcome;
  if (givingUp) {
    // The retry window ran out: the message goes to the dead-letter queue (then this
    // handler succeeds and the original is deleted). Before the delivery reads failed,
    // so a failure in between brings the message back to try again, never loses it;
    // the copy names this attempt, which a redrive needs (attemptNumber).
    await (await queues()).sendToDeadLetters('webhooks', record.body, {
      [DEAD_LETTERED_AFTER]: attemptRecord.at,
    });
  }
  if (!(await saveDelivery(withAttempt(delivery, attemptRecord), stored, new Date()))) {
    // Another handler of the same delivery got there first: its chain goes on, this one ends.
    // (A dead-letter copy sent above stays: its redrive is a fresh message, which sends
    // again unless the delivery is delivered by then.)
    log.info('webhook attempt superseded', { ...job, webhookId, attempt });
    return;
  }
  log.info('webhook attempt', {
    ...job,
    webhookId,
    attempt,
    outcome,
    status: attemptRecord.responseStatus,
    error: result.kind === 'error' ? result.error : undefined,
    ms: result.durationMs,
  });

  if (outcome === 'delivered') {
    count('WebhookDelivered');
    await sendable.target.delivered(now);
    return;
  }
  if (outcome === 'retrying') {
    count('WebhookRetried');
    await (await queues()).retryLater('webhooks', record.receiptHandle, delay!);
    throw new RetryLater(`attempt ${attempt} will be retried in ${delay} s`);
  }
  count('WebhookFailed');
  await sendable.target.failed(lastErrorOf(result, verdict, sendable.target.receiver), now);
}

/**
 * Where a message of the webhooks queue goes and how: the form's webhook
 * (signed Standard Webhooks body) or a Slack or Discord integration (the
 * chat's own JSON, no signature: docs/integrations.md#slack-and-discord).
 * The same sender, guard, timeout and retry rules for all.
 */
interface Outbound {
  url: string;
  /** When the connection was made: a delivery queued for another one is cancelled. */
  connectedAt: string;
  /** Who answered, in lastError's words. */
  receiver: string;
  /** While set, the receiver is held for being slow (docs/delivery.md#a-slow-receiver). */
  slowUntil?: string;
  request(
    submission: Submission,
    form: FormRecord,
    webhookId: string,
    now: Date,
  ): { body: string; headers: Record<string, string> };
  delivered(now: Date): Promise<unknown>;
  failed(lastError: string, now: Date): Promise<unknown>;
}

function webhookOutbound(webhook: Webhook | undefined): Outbound | undefined {
  if (!webhook) return undefined;
  return {
    url: webhook.url,
    connectedAt: webhook.createdAt,
    receiver: 'the receiver',
    slowUntil: webhook.slowUntil,
    request(submission, _form, webhookId, now) {
      const body = webhookPayload(submission, now, submission.isSpam);
      const timestamp = Math.floor(now.getTime() / 1000);
      const headers = webhookHeaders({ secret: webhook.secret, id: webhookId, timestamp, body });
      return { body, headers };
    },
    // One write only when it changes: most deliveries find the webhook active.
    delivered: (now) =>
      webhook.state === 'active'
        ? Promise.resolve()
        : markWebhook(webhook.formId, { state: 'active', lastError: null }, now),
    failed: (lastError, now) => markWebhook(webhook.formId, { state: 'failing', lastError }, now),
  };
}

function chatOutbound(integration: ChatIntegration | undefined): Outbound | undefined {
  if (!integration) return undefined;
  return {
    url: integration.webhookUrl,
    connectedAt: integration.connectedAt,
    receiver: integration.kind === 'slack' ? 'Slack' : 'Discord',
    slowUntil: integration.slowUntil,
    request(submission, form) {
      const input = {
        formName: form.name,
        answers: chatAnswers(submission, form),
        submissionUrl: submissionPageUrl(config.baseUrl, form.id, submission.id),
        isTest: submission.isTest,
        createdAt: submission.createdAt,
      };
      const message = integration.kind === 'slack' ? slackMessage(input) : discordMessage(input);
      return { body: JSON.stringify(message), headers: {} };
    },
    // Every success sets lastDeliveryAt (docs/integrations.md#the-api).
    delivered: (now) => markIntegration(integration, { status: 'active' }, now),
    failed: (lastError, now) => markIntegration(integration, { status: 'failing', lastError }, now),
  };
}

function lastErrorOf(
  result: AttemptResult,
  verdict: 'retry' | 'fail' | 'delivered',
  receiver: string,
): string {
  const what =
    result.kind === 'response' ? `${receiver} answered HTTP ${result.status}` : result.message;
  return verdict === 'retry'
    ? `${what}; no more retries (${retryWindowWords(config.webhookRetryDelaysSeconds)} of them)`
    : what;
}

/**
 * Holds a receiver that was slow, or lets go of one that answered quickly
 * again. Best effort: a failed write only leaves the hold as it was, and
 * must not bring back a message whose attempt was made.
 */
async function noteSpeed(
  job: WebhookJob,
  receiver: Receiver,
  held: boolean,
  slow: boolean,
): Promise<void> {
  try {
    if (slow)
      await holdReceiver(job.formId, receiver, holdUntil(new Date(), config.receiverTimeoutMs));
    else if (held) await releaseReceiver(job.formId, receiver);
  } catch (error) {
    log.warn('slow receiver hold not written', { ...job, receiver, ...errorFields(error) });
  }
}

/** A received message's string attributes, to copy onto a message sent in its place. */
function stringAttributesOf(record: SQSRecord): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record.messageAttributes ?? {}).flatMap(([name, value]) =>
      value.stringValue === undefined ? [] : [[name, value.stringValue]],
    ),
  );
}
