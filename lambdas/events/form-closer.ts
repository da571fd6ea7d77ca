import type { CloseFormEvent } from '#domain/close-schedule.ts';
import { log } from '#log';
import { closeFormOnSchedule } from '#store/forms.ts';

/**
 * Invoked by the form's one-time EventBridge Scheduler schedule at
 * `autoCloseAt`. A throw makes the Scheduler retry (then its DLQ); a form that
 * moved on (reopened, new date, deleted) is not an error.
 */
export async function handler(event: CloseFormEvent): Promise<{ closed: boolean }> {
  if (typeof event?.formId !== 'string' || typeof event?.autoCloseAt !== 'string') {
    log.error('form closer got an event it cannot read', { event });
    return { closed: false };
  }
  const closed = await closeFormOnSchedule(event.formId, event.autoCloseAt, new Date());
  log.info(closed ? 'form closed on schedule' : 'schedule no longer applies', {
    formId: event.formId,
    autoCloseAt: event.autoCloseAt,
  });
  return { closed };
}
