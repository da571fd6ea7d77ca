import type { SQSRecord } from 'aws-lambda';
import { config } from '#config';
import { attemptOf } from '#domain/delivery-attempt.ts';
import type { SheetsJob } from '#domain/delivery-channels.ts';
import {
  attemptNumber,
  cancelledDelivery,
  pendingDelivery,
  sendableOrCancelled,
  withAttempt,
} from '#domain/delivery-log.ts';
import type { SheetsIntegration } from '#domain/integrations.ts';
import { retryWindowWords } from '#domain/retry-window.ts';
import type { AttemptResult } from '#domain/webhook-delivery.ts';
import { webhookMessageId } from '#domain/webhook-signature.ts';
import { log } from '#log';
import { count } from '#metrics';
import { sheetsClient } from '#net/google-sheets.ts';
import { appendSubmissionRow, type SheetAppendOutcome } from '#net/sheet-append.ts';
import { getDelivery, saveDelivery } from '#store/deliveries.ts';
import { readSubmissionContext } from '#store/delivery-context.ts';
import { markIntegration } from '#store/integrations.ts';
import { queueWorker } from './batch-worker.ts';

/**
 * The SQS client, loaded by the first delivery that fails (a retry later, or
 * the dead letters): a cold start whose delivery succeeds does not read it.
 */
const queues = () => import('#aws/queues.ts');

/** The webhook worker's attribute of a dead-lettered message (webhook-worker.ts), not imported: its bundle is another. */
const DEAD_LETTERED_AFTER = 'deadLetteredAfter';

/** Thrown to hand a message back to the queue; not an error of the worker. */
class RetryLater extends Error {}

/**
 * One attempt of one submission's row in its form's Google sheet
 * (docs/integrations.md#sending-rows), from the FIFO `sheets` queue (one
 * message a batch: a form's rows one at a time, in order). The delivery
 * log, its numbering of attempts, cancellations and the retry rules are the
 * webhook's (webhook-worker.ts): Google's 429, 5xx and timeouts are retried
 * on the webhook schedule, a longer `Retry-After` honoured (the message is
 * hidden that long, and FIFO holds its form's later rows back meanwhile);
 * any other 4xx fails at once and marks the integration failing. An attempt
 * that is not the first of its message (a redelivery, a retry, a manual
 * retry) may follow one Google applied without answering, so it reads the
 * sheet's `id` column first and appends nothing when the row is there.
 */
export const handler = queueWorker(() => appendRow);

async function appendRow(record: SQSRecord): Promise<void> {
  const job = JSON.parse(record.body) as SheetsJob;
  const context = await readSubmissionContext(job.formId, job.submissionId, 'sheets');
  if (!context) {
    log.info('sheets row skipped', { ...job, reason: 'form deleted' });
    return;
  }
  const integration = context.integrations.find(
    (each): each is SheetsIntegration => each.kind === 'sheets',
  );
  const now = new Date();
  const stored = await getDelivery(job.formId, job.submissionId, 'sheets');
  const delivery =
    stored ??
    pendingDelivery({
      formId: job.formId,
      submissionId: job.submissionId,
      channel: 'sheets',
      webhookId: webhookMessageId(job.submissionId),
      webhookConnectedAt: integration?.connectedAt,
      now,
    });
  const receiveCount = Number(record.attributes.ApproximateReceiveCount ?? '1');
  const attempt = attemptNumber(delivery, {
    receiveCount,
    deadLetteredAfter: record.messageAttributes?.[DEAD_LETTERED_AFTER]?.stringValue,
  });
  if (attempt === undefined) return;
  const sendable = sendableOrCancelled({
    delivery,
    submission: context.submission,
    target: integration,
    connectedAt: (each) => each.connectedAt,
    removed: 'integration_removed',
    pro: context.team.plan === 'pro',
  });
  if ('cancel' in sendable) {
    if (await saveDelivery(cancelledDelivery(delivery, sendable.cancel, now), stored, now)) {
      count('WebhookCancelled', 1, { reason: sendable.cancel });
      log.info('sheets row cancelled', { ...job, reason: sendable.cancel });
    }
    return;
  }
  const { submission, target } = sendable;

  const started = performance.now();
  const outcome = await appendOnce(target, submission, context.form.fields ?? [], {
    mayBeThere: receiveCount > 1 || delivery.attempts.length > 0 || job.manual === true,
  });
  const durationMs = Math.round(performance.now() - started);
  const result: AttemptResult =
    outcome.kind === 'failed' ? outcome.attempt : { kind: 'response', status: 200 };
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
    durationMs,
    responseBody: describe(outcome),
  });
  const status = attemptRecord.outcome;
  if (givingUp) {
    // Retries spent: to the dead-letter queue before the delivery reads failed (webhook-worker.ts).
    await (await queues()).sendToDeadLetters(
      'sheets',
      record.body,
      { [DEAD_LETTERED_AFTER]: attemptRecord.at },
      { groupId: job.formId, deduplicationId: `${job.submissionId}-dead-${now.getTime()}` },
    );
  }
  if (!(await saveDelivery(withAttempt(delivery, attemptRecord), stored, new Date()))) {
    log.info('sheets attempt superseded', { ...job, attempt });
    return;
  }
  log.info('sheets attempt', {
    ...job,
    attempt,
    outcome: status,
    result: outcome.kind,
    step: outcome.kind === 'failed' ? outcome.step : undefined,
    status: attemptRecord.responseStatus,
    ms: durationMs,
  });
  if (status === 'delivered') {
    count('WebhookDelivered');
    await markIntegration(target, { status: 'active' }, now);
    return;
  }
  if (status === 'retrying') {
    count('WebhookRetried');
    await (await queues()).retryLater('sheets', record.receiptHandle, delay!);
    throw new RetryLater(`attempt ${attempt} will be retried in ${delay} s`);
  }
  count('WebhookFailed');
  const reason = outcome.kind === 'failed' ? outcome.reason : 'failed';
  const lastError =
    verdict === 'retry'
      ? `Google Sheets: ${reason}; no more retries (${retryWindowWords(config.webhookRetryDelaysSeconds)} of them)`
      : `Google Sheets: ${reason}`;
  await markIntegration(target, { status: 'failing', lastError }, now);
}

/** One append, or a failure in Google's terms when the deployment has no key. */
async function appendOnce(
  target: SheetsIntegration,
  submission: Parameters<typeof appendSubmissionRow>[1]['submission'],
  fields: readonly { id: string }[],
  options: { mayBeThere: boolean },
): Promise<SheetAppendOutcome> {
  const client = sheetsClient();
  if (!client) {
    return {
      kind: 'failed',
      attempt: { kind: 'response', status: 409 },
      reason: 'Google Sheets is not set up on this deployment (no service account key)',
      step: 'header',
    };
  }
  return appendSubmissionRow(client, {
    spreadsheetId: target.spreadsheetId,
    sheetName: target.sheetName,
    submission,
    fieldIds: fields.map((field) => field.id),
    mayBeThere: options.mayBeThere,
  });
}

/** What the delivery log keeps of the attempt: where the row went, or Google's words. */
function describe(outcome: SheetAppendOutcome): string {
  switch (outcome.kind) {
    case 'appended':
      return outcome.row === undefined ? 'Row appended' : `Row ${outcome.row} appended`;
    case 'already_there':
      return `Row ${outcome.row} was there already: nothing appended`;
    case 'failed':
      return `${outcome.step}: ${outcome.reason}`;
  }
}
