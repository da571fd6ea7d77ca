import { NestedStack, Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { AccessTargets } from '#lib/constructs/access.ts';
import type { FunctionDefaults, ServiceFunction } from '#lib/constructs/service-function.ts';
import { addWorker } from '#lib/constructs/workers.ts';
import type { CapSettings, Worker } from '#workers';

export interface WorkersStackProps {
  workers: readonly Worker[];
  /** Absolute path of `lambdas/`. */
  lambdasDir: string;
  functionDefaults: FunctionDefaults;
  targets: AccessTargets;
  /** What the workers' event sources are sized by (the SES sending rate, the webhook cap). */
  settings: CapSettings;
}

/**
 * The event-driven functions of lambdas/workers.ts, each with its trigger
 * (the table stream, a queue, run-time schedules), as a nested stack
 * (docs/architecture.md#stacks). The queues and the schedule group they
 * read are the root stack's shared state.
 */
export class WorkersStack extends NestedStack {
  readonly functions = new Map<string, ServiceFunction>();
  /** The workers reading the table stream: one iterator-age alarm each. */
  readonly streamConsumers: ServiceFunction[] = [];

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, { description: `Workers of ${Stack.of(scope).stackName}` });
    for (const worker of props.workers) {
      // A worker of a queue this deployment lacks (lambdas/queues.ts deployedWhen) is not built.
      const { trigger } = worker;
      if ('queue' in trigger && !props.targets.queues.deployed(trigger.queue)) continue;
      const fn = addWorker(
        this,
        worker,
        props.lambdasDir,
        props.functionDefaults,
        props.targets,
        props.settings,
      );
      this.functions.set(worker.name, fn);
      if (worker.trigger.kind === 'tableStream') this.streamConsumers.push(fn);
    }
  }
}
