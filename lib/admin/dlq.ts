import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ListDeadLetterSourceQueuesCommand,
  ListQueuesCommand,
  type Message,
  PurgeQueueCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';

/**
 * Operator tools for dead-letter queues (`npm run admin -- dlq …`). A DLQ is
 * read by peeking (ReceiveMessage with VisibilityTimeout 0, nothing deleted);
 * a redrive moves messages one by one, SendMessage to the source queue with the
 * same body and message attributes first and DeleteMessage from the DLQ after,
 * so a failure between the two duplicates a message at worst and never loses
 * one. A redriven message is a fresh one (receive count 1), which the webhook
 * worker takes as "send a failed delivery again", with the same `webhook-id`;
 * its `deadLetteredAfter` attribute, copied back, keeps it so when that first
 * receive is lost (lambdas/domain/delivery-log.ts, attemptNumber).
 */

/** One dead-letter queue and the queue its messages came from (`null` when unknown). */
export interface DeadLetterQueue {
  /** The logical name (`webhooks`, `emails`) or, when addressed by URL, the queue's name. */
  name: string;
  url: string;
  sourceUrl: string | null;
}

export interface QueueSummary {
  queue: string;
  deadLetterUrl: string;
  /** Every message in the DLQ: visible, in flight (being peeked or redriven) and delayed. */
  depth: number;
  visible: number;
  inFlight: number;
  oldestSentAt: string | 'unknown';
  oldestAgeSeconds: number | 'unknown';
}

export interface ShownMessage {
  messageId: string;
  receiveCount: number | null;
  sentAt: string | null;
  /** The body decoded as JSON, or the raw text when it is not JSON. */
  body: unknown;
}

/** How many receive rounds a peek makes at most (10 messages each). */
const MAX_PEEK_ROUNDS = 100;

export async function summarize(
  sqs: SQSClient,
  dlq: DeadLetterQueue,
  now = new Date(),
): Promise<QueueSummary> {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: dlq.url,
      AttributeNames: [
        'ApproximateNumberOfMessages',
        'ApproximateNumberOfMessagesNotVisible',
        'ApproximateNumberOfMessagesDelayed',
      ],
    }),
  );
  const visible = Number(Attributes.ApproximateNumberOfMessages ?? 0);
  const inFlight = Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0);
  const delayed = Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0);
  // The oldest message among those a peek sees: SQS hands out no order, so this
  // is exact only when the peek saw every message (CloudWatch's
  // ApproximateAgeOfOldestMessage is the deployed stack's exact figure).
  const peeked = visible + inFlight > 0 ? await peek(sqs, dlq.url, 100) : [];
  const sent = peeked
    .map((message) => Number(message.Attributes?.SentTimestamp))
    .filter((value) => Number.isFinite(value) && value > 0);
  const oldest = sent.length > 0 ? Math.min(...sent) : null;
  return {
    queue: dlq.name,
    deadLetterUrl: dlq.url,
    depth: visible + inFlight + delayed,
    visible,
    inFlight,
    oldestSentAt: oldest === null ? 'unknown' : new Date(oldest).toISOString(),
    oldestAgeSeconds:
      oldest === null ? 'unknown' : Math.max(0, Math.round((now.getTime() - oldest) / 1000)),
  };
}

/** Up to `limit` messages of the queue, without consuming any (VisibilityTimeout 0, no delete). */
export async function show(sqs: SQSClient, url: string, limit: number): Promise<ShownMessage[]> {
  return (await peek(sqs, url, limit)).map((message) => ({
    messageId: message.MessageId!,
    receiveCount: numberOrNull(message.Attributes?.ApproximateReceiveCount),
    sentAt: timeOrNull(message.Attributes?.SentTimestamp),
    body: decode(message.Body ?? ''),
  }));
}

/**
 * Peeks until `limit` distinct messages are seen or a round brings nothing new
 * twice in a row: each round sees at most 10, and SQS samples, so rounds repeat.
 */
async function peek(sqs: SQSClient, url: string, limit: number): Promise<Message[]> {
  const seen = new Map<string, Message>();
  let idle = 0;
  for (let round = 0; round < MAX_PEEK_ROUNDS && seen.size < limit && idle < 2; round++) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: Math.min(10, limit - seen.size),
        VisibilityTimeout: 0,
        WaitTimeSeconds: 0,
        MessageSystemAttributeNames: ['SentTimestamp', 'ApproximateReceiveCount'],
      }),
    );
    const before = seen.size;
    for (const message of Messages) {
      if (seen.size < limit && !seen.has(message.MessageId!)) seen.set(message.MessageId!, message);
    }
    idle = seen.size === before ? idle + 1 : 0;
  }
  return [...seen.values()].sort(
    (a, b) => Number(a.Attributes?.SentTimestamp ?? 0) - Number(b.Attributes?.SentTimestamp ?? 0),
  );
}

/** A predicate on a message's decoded body: `field=value` compares one top-level field. */
export type Match = { field: string; value: string } | null;

/**
 * Moves up to `limit` messages (those `match` accepts) from the DLQ to its
 * source queue, one by one: send, then delete. Messages left in place are made
 * visible again at once. Returns how many were moved.
 */
export async function redrive(
  sqs: SQSClient,
  dlq: DeadLetterQueue & { sourceUrl: string },
  options: { limit: number; match: Match },
): Promise<number> {
  let moved = 0;
  const seen = new Set<string>();
  while (moved < options.limit) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: dlq.url,
        MaxNumberOfMessages: Math.min(10, options.limit - moved),
        // Long enough to send and delete; a message whose move fails shows again after it.
        VisibilityTimeout: 60,
        WaitTimeSeconds: 1,
        MessageAttributeNames: ['All'],
        MessageSystemAttributeNames: ['MessageGroupId'],
      }),
    );
    const fresh = Messages.filter((message) => !seen.has(message.MessageId!));
    for (const message of Messages) {
      seen.add(message.MessageId!);
      if (moved >= options.limit || !matches(message, options.match)) {
        await release(sqs, dlq.url, message);
        continue;
      }
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: dlq.sourceUrl,
          MessageBody: message.Body ?? '',
          MessageAttributes: message.MessageAttributes,
          // A FIFO queue (the `sheets` queue) takes a message only with its group, and a
          // deduplication id of the move's own (a repeat of the original's would be dropped).
          ...(dlq.sourceUrl.endsWith('.fifo')
            ? {
                MessageGroupId: message.Attributes?.MessageGroupId ?? 'redriven',
                MessageDeduplicationId: `redrive-${message.MessageId}`,
              }
            : {}),
        }),
      );
      await sqs.send(
        new DeleteMessageCommand({ QueueUrl: dlq.url, ReceiptHandle: message.ReceiptHandle! }),
      );
      moved++;
    }
    // Empty, or only messages already looked at (left in place by the filter).
    if (fresh.length === 0) break;
  }
  return moved;
}

/** Deletes every message of the queue (SQS allows one purge a minute per queue). */
export async function purge(sqs: SQSClient, url: string): Promise<void> {
  await sqs.send(new PurgeQueueCommand({ QueueUrl: url }));
}

/**
 * A deployed stack's dead-letter queues: every queue named with `prefix` whose
 * RedrivePolicy names a DLQ (CDK names queues `<stack name>-<id>-<suffix>`).
 */
export async function discover(sqs: SQSClient, prefix: string): Promise<DeadLetterQueue[]> {
  const urls: string[] = [];
  let token: string | undefined;
  do {
    const page = await sqs.send(
      new ListQueuesCommand({ QueueNamePrefix: prefix, NextToken: token, MaxResults: 1000 }),
    );
    urls.push(...(page.QueueUrls ?? []));
    token = page.NextToken;
  } while (token);
  const byArn = new Map<string, string>();
  const found: DeadLetterQueue[] = [];
  const policies: { url: string; target: string }[] = [];
  for (const url of urls) {
    const { Attributes = {} } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ['QueueArn', 'RedrivePolicy'],
      }),
    );
    if (Attributes.QueueArn) byArn.set(Attributes.QueueArn, url);
    if (Attributes.RedrivePolicy) {
      const target = (JSON.parse(Attributes.RedrivePolicy) as { deadLetterTargetArn?: string })
        .deadLetterTargetArn;
      if (target) policies.push({ url, target });
    }
  }
  for (const { url: sourceUrl, target } of policies) {
    const url = byArn.get(target);
    if (url) found.push({ name: queueNameOf(url), url, sourceUrl });
  }
  return found;
}

/** The source queue of a DLQ known only by its URL (AWS's ListDeadLetterSourceQueues). */
export async function sourceOf(sqs: SQSClient, url: string): Promise<string> {
  const { queueUrls = [] } = await sqs.send(
    new ListDeadLetterSourceQueuesCommand({ QueueUrl: url }),
  );
  if (queueUrls.length !== 1)
    throw new Error(
      `${url} is the dead-letter queue of ${queueUrls.length} queues: pass --source-url`,
    );
  return queueUrls[0]!;
}

export function queueNameOf(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1);
}

function matches(message: Message, match: Match): boolean {
  if (!match) return true;
  const body = decode(message.Body ?? '');
  if (typeof body !== 'object' || body === null) return false;
  const value = (body as Record<string, unknown>)[match.field];
  return value !== undefined && String(value) === match.value;
}

async function release(sqs: SQSClient, url: string, message: Message): Promise<void> {
  await sqs.send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: url,
      ReceiptHandle: message.ReceiptHandle!,
      VisibilityTimeout: 0,
    }),
  );
}

function decode(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function numberOrNull(value: string | undefined): number | null {
  const number = Number(value);
  return value !== undefined && Number.isFinite(number) ? number : null;
}

function timeOrNull(value: string | undefined): string | null {
  const ms = numberOrNull(value);
  return ms === null ? null : new Date(ms).toISOString();
}
