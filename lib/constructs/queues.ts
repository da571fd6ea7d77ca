import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { QUEUES, type QueueDefinition } from '#queues';
import type { ServiceFunction } from './service-function.ts';

export type QueueName = keyof typeof QUEUES;
export type QueueSettings = Parameters<QueueDefinition['maxReceiveCount']>[0] &
  Parameters<NonNullable<QueueDefinition['deployedWhen']>>[0];

/**
 * Any message in a dead-letter queue needs an operator: an alarm as soon as
 * one is there (the operations issue adds the topic and the dashboard).
 */
export function deadLetterAlarm(scope: Construct, queue: Queue, what: string): Alarm {
  return new Alarm(scope, 'DeadLettersAlarm', {
    alarmDescription: `Messages of ${what} gave up and wait in its dead-letter queue`,
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
    threshold: 0,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}

/** How long a dead letter waits for an operator: SQS's maximum. */
const DEAD_LETTER_RETENTION = Duration.days(14);

/**
 * A queue that only ever receives what failed elsewhere (a redrive, a stream
 * batch, a schedule invocation): SQS-managed SSE, TLS only, kept 14 days.
 * `acknowledgeNoRedrive` when nothing points a RedrivePolicy at it (cdk-nag
 * recognizes only redrive DLQs as DLQs).
 */
export function deadLetterQueue(
  scope: Construct,
  id: string,
  acknowledgeNoRedrive?: string,
  fifo?: boolean,
): Queue {
  const queue = new Queue(scope, id, {
    // A FIFO queue's dead-letter queue must be FIFO too.
    ...(fifo ? { fifo: true } : {}),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: DEAD_LETTER_RETENTION,
  });
  if (acknowledgeNoRedrive) {
    Validations.of(queue).acknowledge({ id: 'AwsSolutions-SQS3', reason: acknowledgeNoRedrive });
  }
  return queue;
}

/** AWS's guidance: a queue's visibility timeout is at least 6 × its Lambda consumer's timeout. */
export const VISIBILITY_TIMEOUT_FACTOR = 6;

/** One queue of lambdas/queues.ts with its dead-letter queue. */
export class ServiceQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly definition: QueueDefinition;

  constructor(scope: Construct, id: string, definition: QueueDefinition, settings: QueueSettings) {
    super(scope, id);
    this.definition = definition;
    this.deadLetterQueue = deadLetterQueue(this, 'DeadLetters', undefined, definition.fifo);
    this.queue = new Queue(this, 'Queue', {
      // Deduplication ids are the sender's (a submission's, or a manual retry's): no content hashing.
      ...(definition.fifo ? { fifo: true, contentBasedDeduplication: false } : {}),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
      // Longer than any retry window (about two hours for webhooks).
      retentionPeriod: Duration.days(4),
      deadLetterQueue: {
        queue: this.deadLetterQueue,
        maxReceiveCount: definition.maxReceiveCount(settings),
      },
    });
    deadLetterAlarm(this, this.deadLetterQueue, `the ${definition.name} queue`);
  }

  /** The queue's URL variable and SendMessage on this queue, nothing else. */
  grantSend(fn: ServiceFunction): void {
    fn.addEnvironment(this.definition.urlVariable, this.queue.queueUrl);
    fn.addToRolePolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }),
    );
  }

  /**
   * The dead-letter queue's URL variable and SendMessage on that DLQ only: for
   * a consumer that moves a message there itself (the webhook worker, whose
   * queue's maxReceiveCount leaves slack for receives that sent nothing).
   */
  grantDeadLetterSend(fn: ServiceFunction): void {
    fn.addEnvironment(this.definition.deadLetterUrlVariable, this.deadLetterQueue.queueUrl);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['sqs:SendMessage'],
        resources: [this.deadLetterQueue.queueArn],
      }),
    );
  }

  /**
   * Checks that a message stays invisible while a consumer with this timeout
   * works on it, with AWS's margin for a Lambda consumer (6 × its timeout:
   * the poller's own retries and batching window); otherwise SQS hands it to
   * a second consumer mid-flight. The consumer also gets the URL
   * (ChangeMessageVisibility needs it).
   */
  addConsumer(fn: ServiceFunction, name: string, timeoutSeconds: number): void {
    const { visibilityTimeoutSeconds } = this.definition;
    const needed = VISIBILITY_TIMEOUT_FACTOR * timeoutSeconds;
    if (visibilityTimeoutSeconds < needed) {
      throw new Error(
        `Queue "${this.definition.name}" has a visibility timeout of ${visibilityTimeoutSeconds} s, ` +
          `less than ${VISIBILITY_TIMEOUT_FACTOR} × the ${timeoutSeconds} s timeout of its consumer "${name}" ` +
          `(${needed} s): raise visibilityTimeoutSeconds in lambdas/queues.ts or lower the worker's timeoutSeconds.`,
      );
    }
    fn.addEnvironment(this.definition.urlVariable, this.queue.queueUrl);
  }
}

/**
 * The queues of lambdas/queues.ts, each built on first use (a worker that
 * consumes it or a function that sends to it), like Scheduling: a queue
 * nothing reads or writes would only be an empty DLQ alarm waiting to be
 * wired. Construct ids derive from the definition, so a queue keeps its
 * logical id whichever function asks for it first.
 */
export class Queues extends Construct {
  private readonly built = new Map<QueueName, ServiceQueue>();
  private streamFailureQueue: Queue | undefined;

  private readonly settings: QueueSettings;

  constructor(scope: Construct, id: string, settings: QueueSettings) {
    super(scope, id);
    this.settings = settings;
  }

  /**
   * Whether this deployment has the queue (lambdas/queues.ts `deployedWhen`):
   * a queue it lacks has no worker, and a grant on it is none.
   */
  deployed(name: QueueName): boolean {
    const definition: QueueDefinition = QUEUES[name];
    return definition.deployedWhen?.(this.settings) ?? true;
  }

  get(name: QueueName): ServiceQueue {
    if (!this.deployed(name)) {
      throw new Error(
        `Queue "${name}" is not part of this deployment (lambdas/queues.ts deployedWhen)`,
      );
    }
    let queue = this.built.get(name);
    if (!queue) {
      queue = new ServiceQueue(this, pascalCase(QUEUES[name].name), QUEUES[name], this.settings);
      this.built.set(name, queue);
    }
    return queue;
  }

  /** Every queue built so far. */
  all(): ServiceQueue[] {
    return [...this.built.values()];
  }

  /** Where table-stream batches go once their retries are spent (on-failure destination). */
  streamFailures(): Queue {
    if (!this.streamFailureQueue) {
      const scope = new Construct(this, 'StreamFailed');
      this.streamFailureQueue = deadLetterQueue(
        scope,
        'Queue',
        'On-failure destination of the table-stream event source mappings: it is the dead-letter queue itself (Lambda, not a RedrivePolicy, sends to it).',
      );
      deadLetterAlarm(scope, this.streamFailureQueue, 'the table-stream workers');
    }
    return this.streamFailureQueue;
  }
}

function pascalCase(name: string): string {
  return name.replace(/(^|[-_ ])(\w)/g, (_match, _sep: string, c: string) => c.toUpperCase());
}
