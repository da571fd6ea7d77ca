import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LambdaHandler } from '#lib/local/lambda-runtime.ts';
import { startQueuePoller } from '#lib/local/queue-poller.ts';
import { QUEUES } from '#queues';
import { admin } from '#test/support/admin.ts';
import { stack } from '#test/support/api.ts';
import {
  connectWebhook,
  deliveryWhen,
  emailsTo,
  eventually,
  newReceiver,
} from '#test/support/delivery.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { messagesIn } from '#test/support/queues.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';

/**
 * A receive that sends nothing (a throttled invocation, a worker that timed
 * out or crashed before sending) must not cost a retry. The real webhook
 * worker runs here in the test's own process, fed by the local stack's own
 * queue poller from a queue pair of this file's own on the stack's SQS
 * emulator (redrive policy as lib/local/resources.ts builds it), through a
 * wrapper that "loses" chosen receives: it hands the batch back unread, as
 * Lambda does with a throttled invocation, so SQS counts the receive and
 * shows the message again after the queue's visibility timeout.
 *
 * The schedule is this process's own (1 s, 1 s, 5 s): a lost receive
 * costs a second of the retry window (the schedule's sum × 1.2 from the
 * first attempt), so the last delay leaves room for a slow machine.
 */
vi.setConfig({ testTimeout: 120_000 });

const DELAYS = [1, 1, 5];
/** How long a lost receive keeps the message hidden. */
const VISIBILITY_SECONDS = 1;

let sqs: SQSClient;
let source: string;
let deadLetters: string;
let poller: { stop(): Promise<void> } | undefined;
let hooks: WebhookReceiver;
/** Receive counts whose receive is lost (the worker never sees it). */
let lose = new Set<number>();
/** The receive counts the worker did see, in order. */
const seen: number[] = [];

beforeAll(async () => {
  const info = stack();
  sqs = new SQSClient({
    region: info.region,
    endpoint: info.endpoints.sqs,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const name = `lost-receives-${crypto.randomUUID().slice(0, 8)}`;
  deadLetters = (await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }))).QueueUrl!;
  const dlqArn = await attribute(deadLetters, 'QueueArn');
  source = (
    await sqs.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: {
          VisibilityTimeout: String(VISIBILITY_SECONDS),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: dlqArn,
            maxReceiveCount: QUEUES.webhooks.maxReceiveCount({ webhookRetryDelaysSeconds: DELAYS }),
          }),
        },
      }),
    )
  ).QueueUrl!;

  // The worker's environment as the local stack gives it, pointed at this file's queues.
  Object.assign(process.env, {
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: info.endpoints.dynamodb,
    AWS_ENDPOINT_URL_SQS: info.endpoints.sqs,
    TABLE_NAME: info.tableName,
    BASE_URL: info.baseUrl,
    WEBHOOK_RETRY_DELAYS_SECONDS: DELAYS.join(','),
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    LOG_LEVEL: 'warn',
    [QUEUES.webhooks.urlVariable]: source,
    [QUEUES.webhooks.deadLetterUrlVariable]: deadLetters,
  });
  const worker = (await import('#events/webhook-worker.ts')).handler as LambdaHandler;
  const lossy: LambdaHandler = async (event: SQSEvent, context) => {
    const kept = event.Records.filter(
      (record) => !lose.has(Number(record.attributes.ApproximateReceiveCount)),
    );
    const lost = event.Records.filter((record) => !kept.includes(record));
    seen.push(...kept.map((record) => Number(record.attributes.ApproximateReceiveCount)));
    const result = kept.length > 0 ? await worker({ Records: kept }, context) : {};
    return {
      batchItemFailures: [
        ...((result as { batchItemFailures?: { itemIdentifier: string }[] })?.batchItemFailures ??
          []),
        ...lost.map((record) => ({ itemIdentifier: record.messageId })),
      ],
    };
  };
  poller = startQueuePoller({
    client: sqs,
    queueUrl: source,
    queueArn: await attribute(source, 'QueueArn'),
    consumer: { name: 'lossyWebhookWorker', handler: lossy, batchSize: 10, timeoutSeconds: 30 },
  });
  hooks = await newReceiver();
});

afterAll(async () => {
  await poller?.stop();
  await hooks?.close();
  for (const url of [source, deadLetters]) {
    if (url) await sqs.send(new DeleteQueueCommand({ QueueUrl: url }));
  }
  sqs?.destroy();
});

async function attribute(url: string, name: 'QueueArn'): Promise<string> {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: [name] }),
  );
  return Attributes[name]!;
}

const depthOf = (url: string) => messagesIn(sqs, url);

/**
 * A Pro form with a stored submission whose webhook job only this file's
 * queue carries: the webhook is connected after the fan-out handled the
 * submission (its owner notification arrived), so the stack's own worker
 * never sends it.
 */
async function submissionOnlyWeDeliver(): Promise<{ form: TestForm; submissionId: string }> {
  const owner = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const form = await newForm('pro', { notifyEmail: owner });
  const post = await submit(form.key, { json: { a: 'lost receives' }, from: freshVisitor() });
  const submissionId = post.body?.submissionId as string;
  expect(submissionId).toBeTruthy();
  await eventually(
    () => emailsTo(owner),
    (list) => list.length > 0,
  );
  await connectWebhook(form, hooks.url);
  return { form, submissionId };
}

describe('a receive that sent nothing costs no retry', () => {
  it('lost receives (before the first attempt, between retries, before the last): the full schedule, numbered without a gap, then the DLQ exactly once; a redrive whose first receive is lost is still sent', async () => {
    hooks.script([], { status: 503 });
    const { form, submissionId } = await submissionOnlyWeDeliver();
    // Receive 1 is lost, 2 makes attempt 1, 3 is lost, 4 and 5 make attempts 2 and 3,
    // 6 is lost, 7 makes attempt 4, the last: 7 receives, within maxReceiveCount.
    lose = new Set([1, 3, 6]);
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: source,
        MessageBody: JSON.stringify({ formId: form.id, submissionId }),
      }),
    );

    const failed = await deliveryWhen(form, submissionId, 'failed');
    const attempts = DELAYS.length + 1;
    expect(failed?.attempts.map((a) => [a.number, a.outcome, a.responseStatus])).toEqual([
      [1, 'retrying', 503],
      [2, 'retrying', 503],
      [3, 'retrying', 503],
      [4, 'failed', 503],
    ]);
    expect(hooks.received).toHaveLength(attempts);
    expect(seen).toEqual([2, 4, 5, 7]);
    // The worker moved the message after its last attempt: one copy in the DLQ, none left behind.
    await eventually(
      () => depthOf(source),
      (depth) => depth === 0,
      10_000,
    );
    // Its copy reaches the dead-letter queue (a depth counts in-flight messages too, so the
    // source's 0 above means the message was deleted there, not hidden for a while).
    await eventually(
      () => depthOf(deadLetters),
      (depth) => depth === 1,
      10_000,
    );
    expect(await depthOf(source)).toBe(0);
    expect(await depthOf(deadLetters)).toBe(1);
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: deadLetters,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: 0,
      }),
    );
    expect(Messages.map((m) => JSON.parse(m.Body!))).toEqual([{ formId: form.id, submissionId }]);

    // The admin CLI moves it back; its first receive is lost too, and it is still sent.
    hooks.script([], { status: 204 });
    lose = new Set([1]);
    seen.length = 0;
    const redrive = await admin(
      'dlq',
      'redrive',
      '--queue-url',
      deadLetters,
      '--source-url',
      source,
    );
    expect(redrive.code, redrive.stderr).toBe(0);
    expect(JSON.parse(redrive.stdout)).toMatchObject({ redriven: 1 });
    const delivered = await deliveryWhen(form, submissionId, 'delivered');
    expect(delivered?.attempts.at(-1)).toMatchObject({ number: 1, outcome: 'delivered' });
    expect(seen).toEqual([2]);
    expect(hooks.received).toHaveLength(attempts + 1);
    expect(new Set(hooks.received.map((hook) => hook.headers['webhook-id']))).toEqual(
      new Set([`msg_${submissionId}`]),
    );
    await eventually(
      () => depthOf(source),
      (depth) => depth === 0,
      10_000,
    );
    expect(await depthOf(deadLetters)).toBe(0);
  });
});
