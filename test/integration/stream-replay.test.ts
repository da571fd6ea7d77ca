import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamFailureRecord } from '#lib/local/stream-failures.ts';
import { admin } from '#test/support/admin.ts';
import { api, stack } from '#test/support/api.ts';
import {
  connectWebhook,
  DELIVERY_WAIT_MS,
  deliveriesOf,
  emailsTo,
  localSqs,
  newReceiver,
  untilQueueDrained,
} from '#test/support/delivery.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { until } from '#test/support/poll.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';

// docs/operations.md#replaying-the-stream
vi.setConfig({ testTimeout: 180_000 });

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/**
 * Lists the form's integrations twice in the table, as no request can: the dispatcher's
 * read of them (one BatchGet) then fails as DynamoDB fails a BatchGet naming a key twice,
 * every try, until the stream gives the record up. `undefined` puts the list back.
 */
async function breakIntegrationList(form: TestForm, kinds: string[] | undefined) {
  const { documents } = await localStore();
  await documents.send(
    new UpdateCommand({
      TableName: stack().tableName,
      Key: { pk: `FORM#${form.id}`, sk: 'FORM' },
      ...(kinds
        ? {
            UpdateExpression: 'SET integrations = :kinds',
            ExpressionAttributeValues: { ':kinds': kinds },
          }
        : { UpdateExpression: 'REMOVE integrations' }),
    }),
  );
}

/** The stream pollers' on-failure records (AWS's shape) that arrived since `since`, left in the queue. */
async function streamFailuresSince(since: number): Promise<StreamFailureRecord[]> {
  const { Messages = [] } = await localSqs().send(
    new ReceiveMessageCommand({
      QueueUrl: stack().streamFailureQueueUrl,
      MaxNumberOfMessages: 10,
      // A look only: the records stay for the next read.
      VisibilityTimeout: 0,
    }),
  );
  return Messages.map((message) => JSON.parse(message.Body!) as StreamFailureRecord).filter(
    (record) => Date.parse(record.timestamp) >= since,
  );
}

const webhookIds = (hooks: WebhookReceiver) =>
  hooks.received.map((hook) => String(hook.headers['webhook-id']));

const summaryOf = async (form: TestForm) => {
  const answer = await api('GET', `/v1/forms/${form.id}/summary`, { key: form.apiKey });
  expect(answer.status, answer.text).toBe(200);
  const { asOf: _, ...rest } = answer.body;
  return rest;
};

describe('npm run admin -- stream replay', () => {
  it('an hour replayed delivers what the dispatcher gave up on and sends nothing twice: each submission once to the receiver and once to the inbox; the summary untouched', async () => {
    const startedAt = Date.now();
    const hooks = await newReceiver();
    receivers.push(hooks);
    const owner = `replay-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const form = await newForm('pro', {
      notifyEmail: owner,
      notifySubject: 'Replay {{submission.id}}',
    });
    await connectWebhook(form, hooks.url);
    const post = async (n: number) => {
      const posted = await submit(form.key, { json: { n }, from: freshVisitor() });
      expect(posted.status, posted.text).toBe(200);
      return posted.body?.submissionId as string;
    };

    // Delivered as usual.
    const first = await post(1);
    await hooks.waitFor(1, DELIVERY_WAIT_MS);

    // Given up: the dispatcher cannot read the form's integrations for this one.
    await breakIntegrationList(form, ['slack', 'slack']);
    const missed = await post(2);
    const failures = await until(
      () => streamFailuresSince(startedAt),
      (records) =>
        records.some((record) => record.requestContext.functionArn.endsWith(':streamDispatcher')),
      { timeoutMs: DELIVERY_WAIT_MS, intervalMs: 250, what: 'the dispatcher giving a batch up' },
    );
    const givenUp = failures.find((record) =>
      record.requestContext.functionArn.endsWith(':streamDispatcher'),
    )!;
    expect(givenUp).toMatchObject({
      requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 10 },
      DDBStreamBatchInfo: { batchSize: expect.any(Number), streamArn: expect.any(String) },
    });
    await breakIntegrationList(form, undefined);

    // Delivered as usual again.
    const third = await post(3);
    await until(
      () => webhookIds(hooks),
      (ids) => ids.includes(`msg_${third}`),
      {
        timeoutMs: DELIVERY_WAIT_MS,
        intervalMs: 150,
        what: 'the third webhook',
      },
    );
    await until(
      () => emailsTo(owner),
      (emails) => emails.length === 2,
      {
        timeoutMs: DELIVERY_WAIT_MS,
        intervalMs: 150,
        what: 'two notifications',
      },
    );
    // Both notifications marked sent, not only in the inbox: SES has an email a moment before
    // the worker marks it, and a replayed copy that came in between would find the claim held
    // and go back to the queue for its visibility timeout (6 minutes), as it would deployed.
    for (const id of [first, third]) {
      await until(
        () =>
          api<{ emails?: { notification: { status: string } | null } }>(
            'GET',
            `/v1/forms/${form.id}/submissions/${id}`,
            { key: form.apiKey },
          ),
        (answer) => ['sent', 'delivered'].includes(answer.body?.emails?.notification?.status ?? ''),
        {
          timeoutMs: DELIVERY_WAIT_MS,
          intervalMs: 150,
          what: `${id}'s notification marked sent or delivered`,
        },
      );
    }
    expect(webhookIds(hooks)).not.toContain(`msg_${missed}`);
    // The summary's own reader took all three, the given-up one included. That reader is the
    // stream's second, and under the whole suite's load it was seen more than a minute behind
    // (3 s alone): it gets twice the delivery wait.
    const summary = await until(
      () => summaryOf(form),
      (body) => (body.totals as { stored: number }).stored === 3,
      { timeoutMs: 2 * DELIVERY_WAIT_MS, intervalMs: 250, what: 'three stored in the summary' },
    );

    // The last hour, replayed, twice.
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    for (const run of [1, 2]) {
      const replay = await admin(
        'stream',
        'replay',
        '--from',
        hourAgo,
        '--to',
        new Date(Date.now() + 1000).toISOString(),
        '--form',
        form.id,
      );
      expect(replay.code, replay.stderr).toBe(0);
      expect(JSON.parse(replay.stdout), `run ${run}`).toMatchObject({
        forms: 1,
        submissions: 3,
        messages: 1,
        sent: true,
        notReplayed: expect.stringContaining('summary is not replayed'),
      });
      for (const queue of ['replays', 'webhooks', 'emails']) await untilQueueDrained(queue);
    }

    // What was missed arrived; nothing came twice.
    expect(webhookIds(hooks).sort()).toEqual(
      [`msg_${first}`, `msg_${missed}`, `msg_${third}`].sort(),
    );
    const emails = await emailsTo(owner);
    expect(emails.map((email) => email.subject).sort()).toEqual(
      [first, missed, third].map((id) => `Replay ${id}`).sort(),
    );
    expect((await deliveriesOf(form)).map((delivery) => delivery.status)).toEqual([
      'delivered',
      'delivered',
      'delivered',
    ]);
    expect(await summaryOf(form)).toEqual(summary);
  });

  it('refuses a bad range before reading anything, and a dry run sends nothing', async () => {
    const backwards = await admin(
      'stream',
      'replay',
      '--from',
      '2026-01-02T00:00:00Z',
      '--to',
      '2026-01-01T00:00:00Z',
    );
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toContain('--from must be before --to');
    const tooLong = await admin(
      'stream',
      'replay',
      '--from',
      '2026-01-01T00:00:00Z',
      '--to',
      '2026-02-01T00:00:00Z',
    );
    expect(tooLong.stderr).toContain('at most 7 days');
    const form = await newForm('pro');
    await submit(form.key, { json: { n: 1 }, from: freshVisitor() });
    const dry = await admin(
      'stream',
      'replay',
      '--from',
      new Date(Date.now() - 60_000).toISOString(),
      '--to',
      new Date(Date.now() + 1000).toISOString(),
      '--form',
      form.id,
      '--dry-run',
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ forms: 1, submissions: 1, sent: false });
  });
});
