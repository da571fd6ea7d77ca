import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import {
  ConflictException,
  CreateScheduleGroupCommand,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '#config';
import { QUEUES } from '#queues';
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
 * Creates every queue of queues.ts with its dead-letter queue (CreateQueue is
 * idempotent). A queue kept from an earlier run answers with the URL it was
 * made with, whose port may be another's now: its URL is taken on the
 * emulator's current address (it finds queues by name, whatever the port).
 */
export async function ensureQueues(sqs: SQSClient): Promise<Record<string, LocalQueue>> {
  const endpoint = await sqs.config.endpoint?.();
  const here = (url: string) =>
    endpoint
      ? `${endpoint.protocol}//${endpoint.hostname}:${endpoint.port}${new URL(url).pathname}`
      : url;
  const created: Record<string, LocalQueue> = {};
  for (const queue of Object.values(QUEUES)) {
    const dlq = await sqs.send(
      new CreateQueueCommand({ QueueName: `${LOCAL_QUEUE_PREFIX}-${queue.name}-dlq` }),
    );
    const dlqArn = await arnOf(sqs, here(dlq.QueueUrl!));
    const main = await sqs.send(
      new CreateQueueCommand({
        QueueName: `${LOCAL_QUEUE_PREFIX}-${queue.name}`,
        Attributes: {
          VisibilityTimeout: String(queue.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: dlqArn,
            maxReceiveCount: queue.maxReceiveCount(config),
          }),
        },
      }),
    );
    created[queue.name] = {
      url: here(main.QueueUrl!),
      arn: await arnOf(sqs, here(main.QueueUrl!)),
      deadLetterUrl: here(dlq.QueueUrl!),
    };
  }
  return created;
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
