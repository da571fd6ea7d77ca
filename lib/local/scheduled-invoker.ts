import type { Worker } from '#workers';
import { invokeWithTimeout, lambdaContext, loadHandler } from './lambda-runtime.ts';

/**
 * What the Scheduler emulator calls when a schedule fires: the target's
 * function name (the last part of its ARN) picks a schedule-triggered
 * worker, which gets the schedule's Input as its event, as Lambda would.
 */
export function scheduledInvoker(candidates: readonly Worker[]) {
  return async (target: { arn: string; input: string | undefined }): Promise<void> => {
    const name = target.arn.split(':').at(-1);
    const worker = candidates.find((w) => w.name === name && w.trigger.kind === 'schedule');
    if (!worker) throw new Error(`no scheduled function named ${name}`);
    const handler = await loadHandler(worker.handler);
    await invokeWithTimeout(
      handler,
      target.input ? JSON.parse(target.input) : {},
      lambdaContext(worker.name, worker.timeoutSeconds),
      worker.timeoutSeconds,
    );
  };
}
