import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import {
  ConflictException,
  CreateScheduleGroupCommand,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  QueueDoesNotExist,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { config } from '#config';
import { QUEUES, type QueueDefinition } from '#queues';
import { LOCAL_BUCKET, LOCAL_QUEUE_PREFIX, LOCAL_SCHEDULE_GROUP } from './environment.ts';

export interface LocalQueue {
  url: string;
  arn: string;
  deadLetterUrl: string;
}

/** Creates the uploads bucket (idempotent). */
export async function ensureBucket(s3: S3Client): Promise<void> {
  try {
    await s3.send(new CreateBucketCommand({ Bucket: LOCAL_BUCKET }));
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
  }
}

/**
 * Creates every queue of queues.ts with its dead-letter queue, or brings a
 * queue kept from an earlier run to today's settings: CreateQueue refuses a
 * kept queue whose attributes differ (a changed WEBHOOK_RETRY_DELAYS_SECONDS
 * moves the RedrivePolicy), so a kept queue gets SetQueueAttributes instead.
 * A kept queue answers with the URL it was made with, whose port may be
 * another's now: its URL is taken on the emulator's current address (it
 * finds queues by name, whatever the port).
 */
export async function ensureQueues(
  sqs: SQSClient,
): Promise<{ queues: Record<string, LocalQueue>; streamFailureUrl: string }> {
  const endpoint = await sqs.config.endpoint?.();
  const here = (url: string) =>
    endpoint
      ? `${endpoint.protocol}//${endpoint.hostname}:${endpoint.port}${new URL(url).pathname}`
      : url;
  const ensure = async (
    name: string,
    attributes: Record<string, string>,
    atCreation: Record<string, string> = {},
  ) => {
    const kept = await urlOf(sqs, name);
    if (!kept) {
      const made = await sqs.send(
        new CreateQueueCommand({ QueueName: name, Attributes: { ...atCreation, ...attributes } }),
      );
      return here(made.QueueUrl!);
    }
    if (Object.keys(attributes).length > 0) {
      await sqs.send(
        new SetQueueAttributesCommand({ QueueUrl: here(kept), Attributes: attributes }),
      );
    }
    return here(kept);
  };
  const created: Record<string, LocalQueue> = {};
  for (const queue of Object.values(QUEUES) as QueueDefinition[]) {
    // As SQS wants: a FIFO queue's name ends in .fifo, and so does its dead-letter queue's.
    // (FifoQueue is set at creation only: SQS never changes it.)
    const fifo: Record<string, string> = queue.fifo ? { FifoQueue: 'true' } : {};
    const suffix = queue.fifo ? '.fifo' : '';
    const deadLetterUrl = await ensure(
      `${LOCAL_QUEUE_PREFIX}-${queue.name}-dlq${suffix}`,
      {},
      fifo,
    );
    const url = await ensure(
      `${LOCAL_QUEUE_PREFIX}-${queue.name}${suffix}`,
      {
        VisibilityTimeout: String(queue.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: await arnOf(sqs, deadLetterUrl),
          maxReceiveCount: queue.maxReceiveCount(config),
        }),
      },
      fifo,
    );
    created[queue.name] = { url, arn: await arnOf(sqs, url), deadLetterUrl };
  }
  // Where the stream pollers put the record of a batch they gave up, as the event source
  // mappings' on-failure destination does on AWS (docs/operations.md#replaying-the-stream).
  const streamFailureUrl = await ensure(`${LOCAL_QUEUE_PREFIX}-stream-failures`, {});
  return { queues: created, streamFailureUrl };
}

async function urlOf(sqs: SQSClient, name: string): Promise<string | undefined> {
  try {
    return (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl;
  } catch (error) {
    if (error instanceof QueueDoesNotExist) return undefined;
    throw error;
  }
}

async function arnOf(sqs: SQSClient, queueUrl: string): Promise<string> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
  );
  return Attributes!.QueueArn!;
}

export function localClients(endpoints: { sqsS3: string }) {
  const common = {
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
  return {
    s3: new S3Client({ ...common, endpoint: endpoints.sqsS3, forcePathStyle: true }),
    sqs: new SQSClient({ ...common, endpoint: endpoints.sqsS3 }),
  };
}

/** The close schedules' group (the stack creates it on AWS). */
export async function ensureScheduleGroup(endpoint: string): Promise<void> {
  const client = new SchedulerClient({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await client.send(new CreateScheduleGroupCommand({ Name: LOCAL_SCHEDULE_GROUP }));
  } catch (error) {
    if (!(error instanceof ConflictException)) throw error;
  }
}
