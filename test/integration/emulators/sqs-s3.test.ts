import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '#lib/local/emulators/handle.ts';
import { startSqsS3 } from '#lib/local/emulators/sqs-s3.ts';
import { LOCAL_CREDENTIALS, REGION } from './aws.ts';
import { expectLoopbackOnly } from './loopback.ts';

describe('SQS and S3 emulator', () => {
  let emulator: EmulatorHandle;
  let sqs: SQSClient;
  let s3: S3Client;

  beforeAll(async () => {
    emulator = await startSqsS3({ port: 0 });
    const config = { endpoint: emulator.endpoint, region: REGION, credentials: LOCAL_CREDENTIALS };
    sqs = new SQSClient(config);
    s3 = new S3Client({ ...config, forcePathStyle: true });
    console.info(`SQS/S3 emulator ready in ${emulator.startupMs} ms`);
  });

  afterAll(async () => {
    sqs?.destroy();
    s3?.destroy();
    await emulator?.stop();
  });

  it('delivers a sent message to a receiver, once deleted it is gone', async () => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'jobs' }));
    expect(QueueUrl).toBe(`${emulator.endpoint}/000000000000/jobs`);

    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: '{"job":1}' }));
    const first = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 1, VisibilityTimeout: 0 }),
    );
    expect(first.Messages?.map((m) => m.Body)).toEqual(['{"job":1}']);

    await sqs.send(
      new DeleteMessageCommand({ QueueUrl, ReceiptHandle: first.Messages![0]!.ReceiptHandle }),
    );
    const after = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 1 }));
    expect(after.Messages ?? []).toEqual([]);
  });

  it('returns an object stored with S3 PutObject', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'uploads' }));
    await s3.send(
      new PutObjectCommand({
        Bucket: 'uploads',
        Key: 'forms/a.txt',
        Body: 'hello file',
        ContentType: 'text/plain',
      }),
    );

    const object = await s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'forms/a.txt' }));

    expect(await object.Body?.transformToString()).toBe('hello file');
    expect(object.ContentType).toBe('text/plain');
  });

  it('accepts connections on 127.0.0.1 only', async () => {
    await expectLoopbackOnly(emulator.port);
  });

  it('stop() closes the port', async () => {
    const other = await startSqsS3({ port: 0 });
    await other.stop();
    await expect(startSqsS3({ port: other.port }).then((h) => h.stop())).resolves.toBeUndefined();
  });

  it('refuses a port that is already taken', async () => {
    await expect(startSqsS3({ port: emulator.port })).rejects.toThrow(
      `port ${emulator.port} (SQS and S3 (fauxqs)) is already in use`,
    );
  });
});

describe('SQS and S3 emulator keeping its state', () => {
  it('a message made visible again (ChangeMessageVisibility 0) is received again, with its count, also after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fauxqs-state-'));
    const clientOf = (endpoint: string) =>
      new SQSClient({ endpoint, region: REGION, credentials: LOCAL_CREDENTIALS });
    const receive = (client: SQSClient, QueueUrl: string) =>
      client.send(
        new ReceiveMessageCommand({
          QueueUrl,
          WaitTimeSeconds: 1,
          VisibilityTimeout: 60,
          MessageSystemAttributeNames: ['ApproximateReceiveCount'],
        }),
      );
    let emulator = await startSqsS3({ port: 0, dataDir });
    let sqs = clientOf(emulator.endpoint);
    try {
      const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'peeked' }));
      await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'kept' }));
      const first = await receive(sqs, QueueUrl!);
      await sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl,
          ReceiptHandle: first.Messages![0]!.ReceiptHandle,
          VisibilityTimeout: 0,
        }),
      );
      const again = await receive(sqs, QueueUrl!);
      expect(again.Messages?.map((m) => m.Body)).toEqual(['kept']);
      expect(again.Messages![0]!.Attributes?.ApproximateReceiveCount).toBe('2');
      await sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl,
          ReceiptHandle: again.Messages![0]!.ReceiptHandle,
          VisibilityTimeout: 0,
        }),
      );
      sqs.destroy();
      await emulator.stop();
      emulator = await startSqsS3({ port: 0, dataDir });
      sqs = clientOf(emulator.endpoint);
      const restarted = await receive(sqs, `${emulator.endpoint}/000000000000/peeked`);
      expect(restarted.Messages?.map((m) => m.Body)).toEqual(['kept']);
      expect(restarted.Messages![0]!.Attributes?.ApproximateReceiveCount).toBe('3');
    } finally {
      sqs.destroy();
      await emulator.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
