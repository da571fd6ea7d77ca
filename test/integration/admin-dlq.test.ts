import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { QUEUES } from '#queues';
import { admin } from '#test/support/admin.ts';
import { stack } from '#test/support/api.ts';
import { connectWebhook, deliveryWhen, eventually, newReceiver } from '#test/support/delivery.ts';
import { newForm } from '#test/support/forms.ts';
import { messagesIn } from '#test/support/queues.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';

// A delivery goes through the whole (test) retry schedule before it reaches the DLQ.
vi.setConfig({ testTimeout: 120_000 });

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

let client: SQSClient | undefined;
function sqs(): SQSClient {
  const info = stack();
  client ??= new SQSClient({
    region: info.region,
    endpoint: info.endpoints.sqs,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return client;
}
const ownQueues: string[] = [];
afterAll(async () => {
  for (const url of ownQueues) await sqs().send(new DeleteQueueCommand({ QueueUrl: url }));
  client?.destroy();
});

interface Shown {
  messageId: string;
  receiveCount: number | null;
  sentAt: string | null;
  body: unknown;
}
interface Listed {
  queue: string;
  depth: number;
  oldestSentAt: string;
  oldestAgeSeconds: number | 'unknown';
}

/** Runs the CLI and parses its JSON answer, failing on any exit but 0. */
async function adminJson<T>(...args: string[]): Promise<T> {
  const result = await admin(...args);
  if (result.code !== 0)
    throw new Error(`admin ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

// The webhooks DLQ is shared by every test file of the run: look for our own message only.
const shown = (queue: string) =>
  adminJson<{ messages: Shown[] }>('dlq', 'show', '--queue', queue, '--limit', '1000');
const ours = (messages: Shown[], submissionId: string) =>
  messages.filter((m) => (m.body as { submissionId?: string }).submissionId === submissionId);

async function ownQueuePair(): Promise<{ source: string; dlq: string }> {
  const name = `admin-dlq-test-${crypto.randomUUID().slice(0, 8)}`;
  const dlq = (await sqs().send(new CreateQueueCommand({ QueueName: `${name}-dlq` }))).QueueUrl!;
  const source = (await sqs().send(new CreateQueueCommand({ QueueName: name }))).QueueUrl!;
  ownQueues.push(dlq, source);
  return { source, dlq };
}

const depthOf = (url: string) => messagesIn(sqs(), url);

async function drain(url: string): Promise<string[]> {
  const bodies: string[] = [];
  for (;;) {
    const { Messages = [] } = await sqs().send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }),
    );
    if (Messages.length === 0) return bodies;
    bodies.push(...Messages.map((m) => m.Body!));
  }
}

describe('admin dlq: the dead-letter queues of the local stack', () => {
  it('a webhook that exhausted its retries is listed, shown, and after redrive delivered to the now-healthy receiver with its original webhook-id', async () => {
    const hooks = await newReceiver();
    receivers.push(hooks);
    hooks.script([], { status: 503 });
    const form = await newForm('pro');
    await connectWebhook(form, hooks.url);
    const post = await submit(form.key, { json: { a: 'dead letter' }, from: freshVisitor() });
    const submissionId = post.body?.submissionId as string;
    expect(submissionId).toBeTruthy();
    expect((await deliveryWhen(form, submissionId, 'failed'))?.status).toBe('failed');

    // show: the worker moves the message to the DLQ after the last attempt.
    const dead = await eventually(
      () => shown('webhooks'),
      ({ messages }) => ours(messages, submissionId).length > 0,
    );
    const [message] = ours(dead.messages, submissionId);
    expect(message).toMatchObject({
      body: { formId: form.id, submissionId },
      receiveCount: expect.any(Number),
      sentAt: expect.stringMatching(/Z$/),
    });
    // A copy the worker sent (SendMessage), not SQS's move of the original: its receive
    // count is the DLQ's own (the peeks'), no longer the source queue's.
    expect(message!.receiveCount).toBeGreaterThanOrEqual(1);
    // show peeks: it consumed nothing.
    expect(ours((await shown('webhooks')).messages, submissionId)).toHaveLength(1);

    // list: every queue's DLQ with its depth and the age of its oldest message.
    const { queues } = await adminJson<{ queues: Listed[] }>('dlq', 'list');
    expect(queues.map((q) => q.queue).sort()).toEqual(
      // Every queue of lambdas/queues.ts, the dispatched workers' FIFO ones and the replays too.
      Object.keys(QUEUES).sort(),
    );
    const webhooks = queues.find((q) => q.queue === 'webhooks')!;
    expect(webhooks.depth).toBeGreaterThanOrEqual(1);
    expect(webhooks.oldestAgeSeconds).toEqual(expect.any(Number));
    expect(Date.parse(webhooks.oldestSentAt)).toBeLessThanOrEqual(Date.parse(message!.sentAt!));

    // redrive (only our message: other files' messages in the shared DLQ stay where they are).
    hooks.script([], { status: 204 });
    const before = hooks.received.length;
    const redriven = await adminJson<{ redriven: number }>(
      'dlq',
      'redrive',
      '--queue',
      'webhooks',
      '--match',
      `submissionId=${submissionId}`,
    );
    expect(redriven.redriven).toBe(1);
    const delivered = await deliveryWhen(form, submissionId, 'delivered');
    expect(delivered?.status).toBe('delivered');
    expect(delivered?.attempts.at(-1)).toMatchObject({ number: 1, outcome: 'delivered' });
    const after = hooks.received.slice(before);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(after.map((hook) => hook.headers['webhook-id'])).toEqual(
      after.map(() => `msg_${submissionId}`),
    );
    expect(JSON.parse(after.at(-1)!.body)).toMatchObject({
      data: { formId: form.id, submissionId },
    });
    expect(ours((await shown('webhooks')).messages, submissionId)).toEqual([]);
  });

  it('redrive without a filter moves every message (or --limit of them) back to the source queue, send then delete; show and list read without consuming', async () => {
    const { source, dlq } = await ownQueuePair();
    const bodies = ['{"n":1}', '{"n":2}', 'not json'];
    for (const body of bodies) {
      await sqs().send(new SendMessageCommand({ QueueUrl: dlq, MessageBody: body }));
    }
    const peek = await adminJson<{ messages: Shown[] }>('dlq', 'show', '--queue-url', dlq);
    expect(peek.messages.map((m) => m.body)).toEqual(
      expect.arrayContaining([{ n: 1 }, { n: 2 }, 'not json']),
    );
    expect(peek.messages).toHaveLength(3);
    const limited = await adminJson<{ messages: Shown[] }>(
      'dlq',
      'show',
      '--queue-url',
      dlq,
      '--limit',
      '2',
    );
    expect(limited.messages).toHaveLength(2);
    expect(await depthOf(dlq)).toBe(3);

    const two = await adminJson<{ redriven: number; to: string }>(
      'dlq',
      'redrive',
      '--queue-url',
      dlq,
      '--source-url',
      source,
      '--limit',
      '2',
    );
    expect(two).toMatchObject({ redriven: 2, to: source });
    expect(await depthOf(dlq)).toBe(1);
    const rest = await adminJson<{ redriven: number }>(
      'dlq',
      'redrive',
      '--queue-url',
      dlq,
      '--source-url',
      source,
    );
    expect(rest.redriven).toBe(1);
    expect(await depthOf(dlq)).toBe(0);
    expect((await drain(source)).sort()).toEqual([...bodies].sort());
  });

  it('list --queue-prefix finds DLQs by the redrive policies of the queues so named (how a deployed stack is listed)', async () => {
    const name = `admin-dlq-prefix-${crypto.randomUUID().slice(0, 8)}`;
    const dlq = (await sqs().send(new CreateQueueCommand({ QueueName: `${name}-dead` }))).QueueUrl!;
    ownQueues.push(dlq);
    const { Attributes = {} } = await sqs().send(
      new GetQueueAttributesCommand({ QueueUrl: dlq, AttributeNames: ['QueueArn'] }),
    );
    const source = (
      await sqs().send(
        new CreateQueueCommand({
          QueueName: `${name}-work`,
          Attributes: {
            RedrivePolicy: JSON.stringify({
              deadLetterTargetArn: Attributes.QueueArn,
              maxReceiveCount: 3,
            }),
          },
        }),
      )
    ).QueueUrl!;
    ownQueues.push(source);
    const sentAt = Date.now();
    await sqs().send(new SendMessageCommand({ QueueUrl: dlq, MessageBody: '{"n":1}' }));
    const { queues } = await adminJson<{ queues: (Listed & { deadLetterUrl: string })[] }>(
      'dlq',
      'list',
      '--queue-prefix',
      name,
    );
    expect(queues).toEqual([
      expect.objectContaining({ queue: `${name}-dead`, deadLetterUrl: dlq, depth: 1 }),
    ]);
    expect(Math.abs(Date.parse(queues[0]!.oldestSentAt) - sentAt)).toBeLessThan(5_000);
    expect(queues[0]!.oldestAgeSeconds).toEqual(expect.any(Number));
  });

  it('purge refuses without --yes (exit 2, nothing removed); with --yes it empties the queue (one of our own)', async () => {
    const before = (await adminJson<{ queues: Listed[] }>('dlq', 'list')).queues.find(
      (q) => q.queue === 'emails',
    )!.depth;
    const refused = await admin('dlq', 'purge', '--queue', 'emails');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(refused.stdout).toBe('');
    const after = (await adminJson<{ queues: Listed[] }>('dlq', 'list')).queues.find(
      (q) => q.queue === 'emails',
    )!.depth;
    expect(after).toBeGreaterThanOrEqual(before);

    // --yes only on a queue of this test's own: the run's DLQs are shared.
    const { dlq } = await ownQueuePair();
    for (const n of [1, 2]) {
      await sqs().send(new SendMessageCommand({ QueueUrl: dlq, MessageBody: `{"n":${n}}` }));
    }
    expect((await admin('dlq', 'purge', '--queue-url', dlq)).code).toBe(2);
    expect(await depthOf(dlq)).toBe(2);
    const purged = await adminJson<{ purged: number }>('dlq', 'purge', '--queue-url', dlq, '--yes');
    expect(purged.purged).toBe(2);
    expect(await depthOf(dlq)).toBe(0);
  });

  it.each([
    [['dlq']],
    [['dlq', 'peek']],
    [['dlq', 'show']],
    [['dlq', 'show', '--queue', 'nope']],
    [['dlq', 'show', '--queue', 'webhooks', '--limit', '0']],
    [['dlq', 'show', '--queue', 'webhooks', '--limit', 'ten']],
    [['dlq', 'show', '--queue', 'webhooks', '--queue-url', 'http://x/q']],
    [['dlq', 'redrive']],
    [['dlq', 'redrive', '--queue', 'webhooks', '--match', 'submissionId']],
    [['dlq', 'show', '--queue', 'webhooks', '--match', 'a=b']],
    [['dlq', 'purge', '--queue', 'webhooks']],
    [['dlq', 'list', '--frob']],
  ])('bad arguments %j print usage and exit 2', async (args) => {
    const result = await admin(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('usage: npm run admin');
  });
});
