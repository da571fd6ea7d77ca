import { call } from './api.ts';
import { SharedReads } from './data.ts';
import type { Form } from './model.ts';

/**
 * One form, read once for the workspace and the screen that open with it
 * (each asked for it: two `GET /v1/forms/{id}` for every form opened). Kept
 * two seconds, enough for a lazy screen's chunk to arrive, not to show a
 * form someone changed elsewhere for long.
 */
const reads = new SharedReads<Form>(2000);

export function readForm(formId: string, signal: AbortSignal): Promise<Form> {
  return reads.read(
    formId,
    (shared) => call('getForm', { params: { id: formId }, signal: shared }),
    signal,
  );
}

/** A form as a save answered it: the next read within the two seconds gets this one. */
export function formSavedAs(form: Form): void {
  reads.keep(form.id, form);
}
