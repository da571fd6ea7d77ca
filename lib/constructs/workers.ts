import { Duration } from 'aws-cdk-lib';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import { type CapSettings, concurrencyCap, type Worker, type WorkerTrigger } from '#workers';
import { type AccessTargets, grantAccess } from './access.ts';
import { acknowledgeWildcardResource } from './nag-finding.ts';
import { ServiceFunction, type ServiceFunctionProps } from './service-function.ts';

export type WorkerFunctionDefaults = Omit<
  ServiceFunctionProps,
  'entry' | 'description' | 'memoryMb' | 'timeoutSeconds'
>;

function describeTrigger(trigger: WorkerTrigger): string {
  switch (trigger.kind) {
    case 'tableStream':
      return 'filtered records of the table stream';
    case 'queue':
      return `messages of the ${trigger.queue} queue`;
    case 'dispatched':
      return `table-stream records the stream dispatcher hands on through the ${trigger.queue} queue`;
    case 'schedule':
      return 'one-time EventBridge Scheduler schedules';
  }
}

/**
 * One entry of lambdas/workers.ts: a ServiceFunction with the same defaults
 * and grants as a route's, plus its trigger. Built as a child of `scope`
 * under the worker's name, like route functions. An SQS trigger runs at
 * most its cap of concurrent invocations, sized by `capSettings`.
 */
export function addWorker(
  scope: Construct,
  worker: Worker,
  lambdasDir: string,
  defaults: WorkerFunctionDefaults,
  targets: AccessTargets,
  capSettings: CapSettings,
): ServiceFunction {
  const fn = new ServiceFunction(scope, worker.name, {
    ...defaults,
    entry: `${lambdasDir}${worker.handler}`,
    description: `Worker ${worker.name}: runs on ${describeTrigger(worker.trigger)}`,
    memoryMb: worker.memoryMb,
    timeoutSeconds: worker.timeoutSeconds,
  });
  grantAccess(fn, worker.access, targets);

  const { trigger } = worker;
  switch (trigger.kind) {
    case 'tableStream': {
      const failures = targets.queues.streamFailures();
      fn.lambda.addEventSource(
        new DynamoEventSource(targets.storage.table, {
          startingPosition: StartingPosition.LATEST,
          batchSize: trigger.batchSize,
          // maxAttempts counts the first try; retryAttempts does not.
          retryAttempts: trigger.maxAttempts - 1,
          maxRecordAge: Duration.seconds(trigger.maxRecordAgeSeconds),
          bisectBatchOnError: true,
          reportBatchItemFailures: true,
          filters: trigger.filters.map((filter) =>
            FilterCriteria.filter(filter as Record<string, unknown>),
          ),
          onFailure: new SqsDlq(failures),
        }),
      );
      // The event source grant adds dynamodb:ListStreams on "*".
      acknowledgeWildcardResource(
        fn.role,
        '*',
        'dynamodb:ListStreams (added by the DynamoDB event source) has no resource-level permissions; the stream read actions are on this table’s stream only.',
      );
      break;
    }
    case 'queue':
    case 'dispatched': {
      const queue = targets.queues.get(trigger.queue);
      if (trigger.kind === 'dispatched' && !queue.definition.fifo) {
        throw new Error(
          `Queue "${trigger.queue}" of the dispatched worker "${worker.name}" must be FIFO (lambdas/queues.ts): one item's records must arrive in the stream's order.`,
        );
      }
      queue.addConsumer(fn, worker.name, worker.timeoutSeconds);
      fn.lambda.addEventSource(
        new SqsEventSource(queue.queue, {
          batchSize: trigger.batchSize,
          reportBatchItemFailures: true,
          maxConcurrency: concurrencyCap(trigger.maxConcurrency, capSettings),
        }),
      );
      break;
    }
    case 'schedule':
      targets.scheduling().allowInvoke(trigger.targetVariable, fn);
      break;
  }
  return fn;
}
