import { INSERTED_SUBMISSION_PATTERN, REMOVED_FORM_PATTERN } from '#store/schema.ts';
import type { Worker, WorkerTrigger } from '#workers';
import { workers } from '#workers';

/**
 * The real worker table plus one worker of each trigger kind, so the stack's
 * triggers, queues and grants are checked before the real workers land.
 * Handlers point at an existing module: bundling is skipped, but
 * NodejsFunction insists the entry file exists.
 */
const probe = { handler: 'http/forms/get-form.ts', memoryMb: 256 } as const;

export const probeWorkers: readonly Worker[] = [
  ...workers,
  {
    ...probe,
    name: 'probeFanout',
    timeoutSeconds: 30,
    access: ['table:read', 'queue:webhooks:send', 'queue:emails:send'],
    trigger: {
      kind: 'tableStream',
      filters: [INSERTED_SUBMISSION_PATTERN],
      batchSize: 25,
      maxAttempts: 4,
      maxRecordAgeSeconds: 3600,
    },
  },
  {
    ...probe,
    name: 'probeWebhookWorker',
    timeoutSeconds: 15,
    access: ['table:read', 'table:write'],
    trigger: { kind: 'queue', queue: 'webhooks', batchSize: 5, maxConcurrency: 3 },
  },
  {
    ...probe,
    name: 'probeEmailWorker',
    timeoutSeconds: 20,
    access: ['table:read'],
    trigger: {
      kind: 'queue',
      queue: 'emails',
      batchSize: 10,
      maxConcurrency: (settings) => settings.sesSendRatePerSecond,
    },
  },
  {
    ...probe,
    name: 'probeDispatched',
    timeoutSeconds: 60,
    access: ['table:read'],
    trigger: {
      kind: 'dispatched',
      filter: REMOVED_FORM_PATTERN,
      queue: 'spamPurges',
      attributes: ['id'],
      batchSize: 10,
      maxConcurrency: 4,
    },
  },
  {
    ...probe,
    name: 'probeFormCloser',
    timeoutSeconds: 10,
    access: ['table:read', 'table:write'],
    trigger: { kind: 'schedule', targetVariable: 'PROBE_FORM_CLOSER_ARN' },
  },
];

/**
 * What each trigger adds to the worker's role, written down independently
 * of lib/: reading the stream plus sending failed batches to the failure
 * queue; consuming its queue; for a schedule, only sending failed
 * invocations to the on-failure destination (the scheduler's role holds the
 * invoke permission).
 */
export const TRIGGER_ACTIONS: Record<WorkerTrigger['kind'], readonly string[]> = {
  tableStream: [
    'dynamodb:DescribeStream',
    'dynamodb:GetRecords',
    'dynamodb:GetShardIterator',
    'dynamodb:ListStreams',
    'sqs:SendMessage',
    'sqs:GetQueueAttributes',
    'sqs:GetQueueUrl',
  ],
  queue: [
    'sqs:ReceiveMessage',
    'sqs:ChangeMessageVisibility',
    'sqs:GetQueueUrl',
    'sqs:DeleteMessage',
    'sqs:GetQueueAttributes',
  ],
  // A dispatched worker consumes its FIFO queue like any queue worker.
  dispatched: [
    'sqs:ReceiveMessage',
    'sqs:ChangeMessageVisibility',
    'sqs:GetQueueUrl',
    'sqs:DeleteMessage',
    'sqs:GetQueueAttributes',
  ],
  // Failed asynchronous invocations go to the on-failure destination.
  schedule: ['sqs:SendMessage'],
};
