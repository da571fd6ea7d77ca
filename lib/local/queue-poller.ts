import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import {
  invokeWithTimeout,
  type LambdaHandler,
  LOCAL_REGION,
  lambdaContext,
} from './lambda-runtime.ts';

/**
 * Feeds an SQS queue into a handler the way a Lambda SQS event source mapping
 * with ReportBatchItemFailures does: a successful batch is deleted, listed
 * failures stay (they come back after the visibility timeout and, past the
 * queue's maxReceiveCount, the emulator moves them to the dead-letter queue),
 * and a thrown error leaves the whole batch.
 */
export interface QueueConsumer {
  name: string;
  handler: LambdaHandler;
  batchSize?: number;
  timeoutSeconds?: number;
}

export interface QueuePollerOptions {
  client: SQSClient;
  queueUrl: string;
  queueArn: string;
  consumer: QueueConsumer;
  /**
   * Long-poll wait (default 1 s). Longer spares an idle stack its receives, but a stop then
   * waits for the receives in flight unless the emulator ends them (`endReceives`).
   */
  waitSeconds?: number;
  /**
   * Batches in flight at once, as Lambda scales an SQS mapping to several
   * concurrent invocations (default 1: one batch after another).
   */
  concurrency?: number;
}

export function startQueuePoller(options: QueuePollerOptions): { stop(): Promise<void> } {
  const { client, queueUrl, queueArn, consumer } = options;
  let stopped = false;
  const abort = new AbortController();

  async function pollOnce(): Promise<void> {
    const { Messages } = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: Math.min(consumer.batchSize ?? 10, 10),
        WaitTimeSeconds: options.waitSeconds ?? 1,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: abort.signal },
    );
    if (!Messages || Messages.length === 0) return;
    const event: SQSEvent = { Records: Messages.map((m) => toLambdaRecord(m, queueArn)) };
    let failed: Set<string>;
    try {
      const result = await invokeWithTimeout<
        { batchItemFailures?: { itemIdentifier: string }[] } | undefined
      >(
        consumer.handler,
        event,
        lambdaContext(consumer.name, consumer.timeoutSeconds ?? 30),
        consumer.timeoutSeconds ?? 30,
      );
      failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      process.stderr.write(`queue ${consumer.name}: batch failed: ${String(error)}\n`);
      return;
    }
    const done = Messages.filter((m) => !failed.has(m.MessageId!));
    if (done.length > 0) {
      await client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
    }
  }

  const poll = async () => {
    while (!stopped) {
      try {
        await pollOnce();
      } catch (error) {
        if (stopped) break;
        process.stderr.write(`queue ${consumer.name}: ${String(error)}\n`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  };
  const loop = Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, poll));

  return {
    stop: async () => {
      stopped = true;
      // A receive in flight is let finish and its batch handled: aborted, the messages it
      // took would stay invisible for the queue's whole visibility timeout after a restart.
      // Only a receive that outlives its own wait is cut off.
      const waitMs = (options.waitSeconds ?? 1) * 1000 + 500;
      const timer = setTimeout(() => abort.abort(), waitMs);
      await loop;
      clearTimeout(timer);
    },
  };
}

function toLambdaRecord(message: Message, queueArn: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp:
        attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      // A FIFO queue's: Powertools' FIFO processor groups by MessageGroupId.
      ...(attributes.MessageGroupId
        ? {
            MessageGroupId: attributes.MessageGroupId,
            MessageDeduplicationId: attributes.MessageDeduplicationId,
            SequenceNumber: attributes.SequenceNumber,
          }
        : {}),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        {
          stringValue: value.StringValue,
          binaryValue: value.BinaryValue
            ? Buffer.from(value.BinaryValue).toString('base64')
            : undefined,
          stringListValues: value.StringListValues ?? [],
          binaryListValues: [],
          dataType: value.DataType ?? 'String',
        },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: LOCAL_REGION,
  };
}
