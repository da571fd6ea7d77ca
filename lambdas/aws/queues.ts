import {
  ChangeMessageVisibilityCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { sdkLogger } from '#aws/sdk-logger.ts';
import { deadLetterQueueUrl, queueUrl } from '#config';
import type { QueueName } from '#queues';

// Created once per container; the endpoint comes from AWS_ENDPOINT_URL_SQS locally.
const sqs = new SQSClient({ logger: sdkLogger });

/** SendMessageBatch takes at most 10 entries. */
const BATCH = 10;

/** Sends each body (JSON) to the queue; throws when any entry was refused. */
export async function enqueue(queue: QueueName, bodies: readonly unknown[]): Promise<void> {
  const url = queueUrl(queue);
  for (let i = 0; i < bodies.length; i += BATCH) {
    const entries = bodies.slice(i, i + BATCH).map((body, n) => ({
      Id: String(n),
      MessageBody: JSON.stringify(body),
    }));
    const result = await sqs.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: entries }));
    if (result.Failed && result.Failed.length > 0) {
      const [first] = result.Failed;
      throw new Error(`${result.Failed.length} messages refused by ${queue}: ${first?.Code}`);
    }
  }
}

/** Sends one body (JSON) to arrive `seconds` from now: a message timer, 15 minutes at most. */
export async function enqueueLater(queue: QueueName, body: unknown, seconds: number) {
  await sendAgainLater(queue, JSON.stringify(body), seconds, {});
}

/** A message of a FIFO queue: its group (received in order, one at a time) and deduplication id. */
export interface OrderedMessage {
  body: unknown;
  groupId: string;
  /** SQS drops a second message with this id within 5 minutes (a retried send). */
  deduplicationId: string;
}

/** Sends each message to a FIFO queue (lambdas/queues.ts `fifo`), in the order given. */
export function enqueueInOrder(
  queue: QueueName,
  messages: readonly OrderedMessage[],
): Promise<void> {
  return sendInOrder(
    queue,
    messages.map((message) => ({ ...message, body: JSON.stringify(message.body) })),
  );
}

/** As enqueueInOrder, with bodies already written (a dispatched stream record's). */
export async function sendInOrder(
  queue: QueueName,
  messages: readonly (OrderedMessage & { body: string })[],
): Promise<void> {
  const url = queueUrl(queue);
  for (let i = 0; i < messages.length; i += BATCH) {
    const entries = messages.slice(i, i + BATCH).map((message, n) => ({
      Id: String(n),
      MessageBody: message.body,
      MessageGroupId: message.groupId,
      MessageDeduplicationId: message.deduplicationId,
    }));
    const result = await sqs.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: entries }));
    if (result.Failed && result.Failed.length > 0) {
      const [first] = result.Failed;
      throw new Error(`${result.Failed.length} messages refused by ${queue}: ${first?.Code}`);
    }
  }
}

/**
 * Sends a copy of a received message (its body and these string attributes)
 * to come back in `seconds` (a message timer: at most 15 minutes); the
 * caller then lets the original be deleted. The copy is a new message, so
 * its receive count starts again: a wait that is no retry (a slow receiver's
 * turn, docs/delivery.md#a-slow-receiver) uses up none of the queue's
 * receives. A failure between the two leaves the original to come back.
 */
export async function sendAgainLater(
  queue: QueueName,
  body: string,
  seconds: number,
  attributes: Record<string, string>,
): Promise<void> {
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: queueUrl(queue),
      MessageBody: body,
      DelaySeconds: Math.min(900, Math.max(0, Math.round(seconds))),
      MessageAttributes: stringAttributes(attributes),
    }),
  );
}

function stringAttributes(attributes: Record<string, string>) {
  return Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => [
      name,
      { DataType: 'String', StringValue: value },
    ]),
  );
}

/**
 * Hides a received message for `seconds` (at most 12 h): reported as a batch
 * item failure afterwards, it comes back when that time is up. This is how a
 * retry waits longer than a message timer's 15 minutes allows.
 */
export async function retryLater(
  queue: QueueName,
  receiptHandle: string,
  seconds: number,
): Promise<void> {
  await sqs.send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: queueUrl(queue),
      ReceiptHandle: receiptHandle,
      VisibilityTimeout: Math.min(43_200, Math.max(0, Math.round(seconds))),
    }),
  );
}

/**
 * Puts a copy of a received message (the same body, with these string
 * attributes) in the queue's dead-letter queue, where SQS's own redrive would
 * have put it; the caller then lets the original be deleted. A failure
 * between the two leaves the original to come back: at worst a second copy,
 * never none.
 */
export async function sendToDeadLetters(
  queue: QueueName,
  body: string,
  attributes: Record<string, string> = {},
  /** For a FIFO queue's dead-letter queue (FIFO too): the message's group and a deduplication id. */
  fifo?: { groupId: string; deduplicationId: string },
): Promise<void> {
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: deadLetterQueueUrl(queue),
      MessageBody: body,
      ...(fifo
        ? { MessageGroupId: fifo.groupId, MessageDeduplicationId: fifo.deduplicationId }
        : {}),
      MessageAttributes: stringAttributes(attributes),
    }),
  );
}
