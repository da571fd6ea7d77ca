import type { RetentionSweepEvent } from '#domain/retention-sweep.ts';
import { log } from '#log';
import { markRetentionSweep } from '#store/retention-sweeps.ts';

/**
 * Invoked by the form's one-time retention sweep schedule
 * (docs/submissions.md#retention): marks the form item swept, a write whose
 * stream record runs the retention applier (the purge, then the next
 * sweep). A form deleted or keeping everything now is left alone, which
 * ends its sweeps. A throw makes the Scheduler retry (then its DLQ).
 */
export async function handler(event: RetentionSweepEvent): Promise<{ swept: boolean }> {
  if (typeof event?.formId !== 'string') {
    log.error('retention sweeper got an event it cannot read', { event });
    return { swept: false };
  }
  const swept = await markRetentionSweep(event.formId, new Date());
  log.info(swept ? 'retention sweep marked' : 'form no longer keeps a retention', {
    formId: event.formId,
  });
  return { swept };
}
