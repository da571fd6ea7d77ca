import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocalHandle, startDynamoDbLocal } from '#lib/local/emulators/dynamodb.ts';
import { startScheduler } from '#lib/local/emulators/scheduler.ts';
import { startSqsS3 } from '#lib/local/emulators/sqs-s3.ts';
import { localFunctionArn } from '#lib/local/lambda-runtime.ts';
import { startQueuePoller } from '#lib/local/queue-poller.ts';
import { scheduledInvoker } from '#lib/local/scheduled-invoker.ts';
import { startStreamPoller } from '#lib/local/stream-poller.ts';
import { INSERTED_SUBMISSION_PATTERN } from '#store/schema.ts';
import { handler, recorded, script } from '#test/fixtures/recording-handler.ts';
import { until } from '#test/support/poll.ts';
import type { Worker } from '#workers';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const region = 'us-east-1';
let stateDir: string;
let dynamodb: DynamoDbLocalHandle;
let sqsS3: Awaited<ReturnType<typeof startSqsS3>>;

/** The first value `probe` gives, polled with the tests' one poll; throws when none comes in time. */
async function eventually<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  return (await until(probe, (value) => value !== undefined, { timeoutMs, intervalMs: 50 })) as T;
}

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'pollers-'));
  [dynamodb, sqsS3] = await Promise.all([
    startDynamoDbLocal({ port: 0, stateDir }),
    startSqsS3({ port: 0 }),
  ]);
  Object.assign(process.env, {
    AWS_REGION: region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: dynamodb.endpoint,
    TABLE_NAME: 'pollers-test',
  });
}, 60_000);

afterAll(async () => {
  await Promise.all([dynamodb?.stop(), sqsS3?.stop()]);
  await rm(stateDir, { recursive: true, force: true });
});

describe('stream poller', () => {
  it('feeds only inserted submissions, in Lambda’s DynamoDB stream event shape, retrying partial failures', async () => {
    const { ensureTable } = await import('#store/table-setup.ts');
    const { documents } = await import('#store/client.ts');
    const { PutCommand, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const streamArn = await ensureTable('pollers-test');
    const client = new DynamoDBStreamsClient({ region, credentials, endpoint: dynamodb.endpoint });
    // First delivery of the submission fails it; the retry must bring it back.
    script((event, call) => {
      const records = (event as DynamoDBStreamEvent).Records;
      return call === 1
        ? { batchItemFailures: [{ itemIdentifier: records[0]!.dynamodb!.SequenceNumber }] }
        : {};
    });
    const poller = startStreamPoller({
      client,
      streamArn,
      consumer: {
        name: 'fanout',
        handler,
        filters: [INSERTED_SUBMISSION_PATTERN],
        maxAttempts: 3,
      },
      intervalMs: 50,
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 500)); // let it take the LATEST position
      const put = (Item: Record<string, unknown>) =>
        documents.send(new PutCommand({ TableName: 'pollers-test', Item }));
      await put({ pk: 'FORM#f1', sk: 'FORM', entity: 'form', name: 'not a submission' });
      await put({
        pk: 'FORM#f1',
        sk: 'SUB#01',
        entity: 'submission',
        data: { email: 'a@example.com' },
      });
      await documents.send(
        new UpdateCommand({
          TableName: 'pollers-test',
          Key: { pk: 'FORM#f1', sk: 'SUB#01' },
          UpdateExpression: 'SET #read = :t',
          ExpressionAttributeNames: { '#read': 'read' },
          ExpressionAttributeValues: { ':t': true },
        }),
      );
      const events = await eventually(() => (recorded().length >= 2 ? recorded() : undefined));
      await new Promise((resolve) => setTimeout(resolve, 500)); // nothing else may arrive
      expect(recorded()).toHaveLength(2);
      const [first, retry] = events as DynamoDBStreamEvent[];
      expect(retry).toEqual(first);
      expect(first!.Records).toHaveLength(1);
      const record = first!.Records[0]!;
      expect(record).toMatchObject({
        eventName: 'INSERT',
        eventSource: 'aws:dynamodb',
        eventVersion: '1.1',
        awsRegion: region,
        eventSourceARN: streamArn,
        dynamodb: {
          Keys: { pk: { S: 'FORM#f1' }, sk: { S: 'SUB#01' } },
          NewImage: { entity: { S: 'submission' }, data: { M: { email: { S: 'a@example.com' } } } },
          StreamViewType: 'NEW_AND_OLD_IMAGES',
        },
      });
      expect(typeof record.dynamodb!.SequenceNumber).toBe('string');
      expect(typeof record.dynamodb!.ApproximateCreationDateTime).toBe('number');
    } finally {
      await poller.stop();
    }
  });

  it('idle, reads again only after its idle interval unless woken: woken, at once (the local stack wakes it on its writes)', async () => {
    const { ensureTable } = await import('#store/table-setup.ts');
    const { documents } = await import('#store/client.ts');
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const streamArn = await ensureTable('pollers-test');
    const client = new DynamoDBStreamsClient({ region, credentials, endpoint: dynamodb.endpoint });
    script(() => ({}));
    const poller = startStreamPoller({
      client,
      streamArn,
      consumer: { name: 'woken', handler, filters: [INSERTED_SUBMISSION_PATTERN] },
      intervalMs: 50,
      idleIntervalMs: 60_000,
    });
    const put = (sk: string) =>
      documents.send(
        new PutCommand({
          TableName: 'pollers-test',
          Item: { pk: 'FORM#f2', sk, entity: 'submission', data: {} },
        }),
      );
    const keys = () =>
      (recorded() as DynamoDBStreamEvent[]).flatMap((event) =>
        event.Records.map((record) => record.dynamodb?.Keys?.sk?.S),
      );
    try {
      // Its first read takes the stream's end (LATEST): until one of these puts is handed over,
      // a put may have come before it. Woken each time, so it reads again soon.
      for (let i = 0; keys().length === 0; i++) {
        expect(i, 'a primed read within 20 tries').toBeLessThan(20);
        await put(`SUB#p${i}`);
        poller.wake();
        await until(keys, (seen) => seen.length > 0, { timeoutMs: 1_000, intervalMs: 50 }).catch(
          () => undefined,
        );
      }
      // Then idle: its reads after the one that found the put are at most 50 ms apart while
      // woken, then a minute.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      script(() => ({}));
      await put('SUB#w1');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(keys()).toEqual([]);
      const woken = performance.now();
      poller.wake();
      await eventually(() => (keys().length > 0 ? true : undefined), 5_000);
      expect(performance.now() - woken).toBeLessThan(2_000);
      expect(keys()).toEqual(['SUB#w1']);
      // A wake in the middle of a wait of a minute, as well as one before it.
      await put('SUB#w2');
      poller.wake();
      await eventually(() => (keys().length > 1 ? true : undefined), 5_000);
      expect(keys()).toEqual(['SUB#w1', 'SUB#w2']);
    } finally {
      const stopping = performance.now();
      await poller.stop();
      // A stop ends the minute's wait.
      expect(performance.now() - stopping).toBeLessThan(2_000);
    }
  });
});

describe('queue poller', () => {
  async function queueOf(sqs: SQSClient, name: string, attributes: Record<string, string> = {}) {
    const made = await sqs.send(
      new CreateQueueCommand({ QueueName: name, Attributes: attributes }),
    );
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: made.QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    return { url: made.QueueUrl!, arn: Attributes!.QueueArn! };
  }

  it('runs at most its cap of batches at once, as an SQS event source’s maximum concurrency, and reaches it', async () => {
    const sqs = new SQSClient({ region, credentials, endpoint: sqsS3.endpoint });
    const queue = await queueOf(sqs, 'poller-capped');
    let running = 0;
    let peak = 0;
    const holds: (() => void)[] = [];
    // Each batch holds its invocation until the test lets it go.
    script(async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise<void>((resolve) => holds.push(resolve));
      running--;
      return {};
    });
    for (const first of [0, 10]) {
      await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queue.url,
          Entries: Array.from({ length: 10 }, (_, i) => ({
            Id: String(i),
            MessageBody: `m${first + i}`,
          })),
        }),
      );
    }
    const poller = startQueuePoller({
      client: sqs,
      queueUrl: queue.url,
      queueArn: queue.arn,
      consumer: { name: 'capped', handler, batchSize: 1 },
      concurrency: 3,
    });
    try {
      await until(
        () => running,
        (n) => n === 3,
        { timeoutMs: 15_000, intervalMs: 10 },
      );
      // Twenty messages wait; as each batch ends another starts, never a fourth beside them.
      for (let released = 0; released < 20; released++) {
        await until(
          () => holds.length,
          (n) => n > 0,
          { timeoutMs: 15_000, intervalMs: 10 },
        );
        expect(running).toBeLessThanOrEqual(3);
        holds.shift()!();
      }
      expect(recorded()).toHaveLength(20);
      expect(peak).toBe(3);
    } finally {
      for (const release of holds.splice(0)) release();
      await poller.stop();
    }
  });

  it('a stop ends a 20-second receive of an empty queue at once when the emulator ends its receives', async () => {
    const sqs = new SQSClient({ region, credentials, endpoint: sqsS3.endpoint });
    const queue = await queueOf(sqs, 'poller-long-wait');
    script(() => ({}));
    const poller = startQueuePoller({
      client: sqs,
      queueUrl: queue.url,
      queueArn: queue.arn,
      consumer: { name: 'waiting', handler },
      waitSeconds: 20,
    });
    await new Promise((resolve) => setTimeout(resolve, 300)); // its receive is waiting
    const stopping = performance.now();
    const stopped = poller.stop();
    // Again until it has stopped, as the stack does: a receive sent after one end waits anew.
    const ending = setInterval(() => sqsS3.endReceives(), 50);
    sqsS3.endReceives();
    await stopped;
    clearInterval(ending);
    expect(performance.now() - stopping).toBeLessThan(2_000);
    expect(recorded()).toEqual([]);
    sqs.destroy();
  });

  it('hands a FIFO queue’s messages over with their group, as Lambda does', async () => {
    const sqs = new SQSClient({ region, credentials, endpoint: sqsS3.endpoint });
    const queue = await queueOf(sqs, 'poller-ordered.fifo', { FifoQueue: 'true' });
    script(() => ({}));
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queue.url,
        MessageBody: 'first',
        MessageGroupId: 'FORM#1',
        MessageDeduplicationId: 'event-1',
      }),
    );
    const poller = startQueuePoller({
      client: sqs,
      queueUrl: queue.url,
      queueArn: queue.arn,
      consumer: { name: 'ordered', handler, batchSize: 10 },
    });
    try {
      await until(
        () => recorded().length,
        (n) => n > 0,
        { timeoutMs: 15_000, intervalMs: 20 },
      );
      const [record] = (recorded()[0] as SQSEvent).Records;
      expect(record!.attributes).toMatchObject({
        MessageGroupId: 'FORM#1',
        MessageDeduplicationId: 'event-1',
      });
    } finally {
      await poller.stop();
    }
  });

  it('deletes handled messages, keeps reported failures and lets the queue redrive them to the DLQ', async () => {
    const sqs = new SQSClient({ region, credentials, endpoint: sqsS3.endpoint });
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: 'poller-dlq' }));
    const dlqArn = (
      await sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
      )
    ).Attributes!.QueueArn!;
    const queue = await sqs.send(
      new CreateQueueCommand({
        QueueName: 'poller-main',
        Attributes: {
          VisibilityTimeout: '1',
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 2 }),
        },
      }),
    );
    const queueArn = (
      await sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: queue.QueueUrl, AttributeNames: ['QueueArn'] }),
      )
    ).Attributes!.QueueArn!;
    script((event) => ({
      batchItemFailures: (event as SQSEvent).Records.filter((r) => r.body === 'poison').map(
        (r) => ({
          itemIdentifier: r.messageId,
        }),
      ),
    }));
    await sqs.send(new SendMessageCommand({ QueueUrl: queue.QueueUrl, MessageBody: 'good' }));
    await sqs.send(new SendMessageCommand({ QueueUrl: queue.QueueUrl, MessageBody: 'poison' }));
    const poller = startQueuePoller({
      client: sqs,
      queueUrl: queue.QueueUrl!,
      queueArn,
      consumer: { name: 'worker', handler, batchSize: 10 },
    });
    try {
      // Each read long-polls the dead-letter queue for a second: no pause between reads.
      const dead = await until(
        async () => {
          const { Messages = [] } = await sqs.send(
            new ReceiveMessageCommand({
              QueueUrl: dlq.QueueUrl,
              WaitTimeSeconds: 1,
              MaxNumberOfMessages: 10,
            }),
          );
          return Messages;
        },
        (messages) => messages.length > 0,
        { timeoutMs: 15_000, intervalMs: 0, what: 'the poison message in the DLQ' },
      );
      expect(dead.map((m) => m.Body)).toEqual(['poison']);
      const bodies = (recorded() as SQSEvent[]).flatMap((e) => e.Records.map((r) => r.body));
      expect(bodies.filter((b) => b === 'good')).toHaveLength(1);
      expect(bodies.filter((b) => b === 'poison')).toHaveLength(2);
      const poisonReceipts = (recorded() as SQSEvent[])
        .flatMap((e) => e.Records)
        .filter((r) => r.body === 'poison')
        .map((r) => r.attributes.ApproximateReceiveCount);
      expect(poisonReceipts).toEqual(['1', '2']);
      const first = (recorded() as SQSEvent[])[0]!.Records[0]!;
      expect(first).toMatchObject({
        eventSource: 'aws:sqs',
        eventSourceARN: queueArn,
        awsRegion: region,
      });
    } finally {
      await poller.stop();
    }
  });
});

describe('scheduled invocations', () => {
  it('an at() schedule fires the named schedule-triggered function with its Input as the event', async () => {
    const fixture: Worker = {
      name: 'fixtureCloser',
      handler: '../test/fixtures/recording-handler.ts',
      memoryMb: 128,
      timeoutSeconds: 5,
      access: [],
      trigger: { kind: 'schedule', targetVariable: 'FIXTURE_CLOSER_ARN' },
    };
    script(() => undefined);
    const scheduler = await startScheduler({
      port: 0,
      invoke: scheduledInvoker([fixture]),
      tickMs: 100,
    });
    try {
      const client = new SchedulerClient({ region, credentials, endpoint: scheduler.endpoint });
      const at = new Date(Date.now() + 1_000).toISOString().slice(0, 19);
      await client.send(
        new CreateScheduleCommand({
          Name: 'close-form-1',
          ScheduleExpression: `at(${at})`,
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          Target: {
            Arn: localFunctionArn('fixtureCloser'),
            RoleArn: 'arn:aws:iam::000000000000:role/scheduler',
            Input: JSON.stringify({ formId: 'f1', autoCloseAt: at }),
          },
        }),
      );
      const events = await eventually(
        () => (recorded().length > 0 ? recorded() : undefined),
        10_000,
      );
      expect(events).toEqual([{ formId: 'f1', autoCloseAt: at }]);
    } finally {
      await scheduler.stop();
    }
  });
});

describe('table setup', () => {
  it('a table kept from an earlier run gets the indexes declared since (subPending), its items kept', async () => {
    const { createTableInput, ensureTable } = await import('#store/table-setup.ts');
    const { dynamodb: client, documents } = await import('#store/client.ts');
    const { CreateTableCommand, DescribeTableCommand } = await import('@aws-sdk/client-dynamodb');
    const { GetCommand, PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const name = 'kept-from-before';
    // The table as it was before the pending folder: without subPending.
    const before = createTableInput(name);
    await client.send(
      new CreateTableCommand({
        ...before,
        GlobalSecondaryIndexes: before.GlobalSecondaryIndexes!.filter(
          (index) => index.IndexName !== 'subPending',
        ),
        AttributeDefinitions: before.AttributeDefinitions!.filter(
          (attribute) => attribute.AttributeName !== 'subPendingPk',
        ),
      }),
    );
    const key = { pk: 'FORM#kept', sk: 'FORM' };
    await documents.send(new PutCommand({ TableName: name, Item: { ...key, name: 'Kept' } }));
    await ensureTable(name);
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(
      before.GlobalSecondaryIndexes!.map((index) => index.IndexName).sort(),
    );
    const kept = await documents.send(new GetCommand({ TableName: name, Key: key }));
    expect(kept.Item?.name).toBe('Kept');
    // Started again: nothing more to add.
    await ensureTable(name);
  });
});
