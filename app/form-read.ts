import { call } from './api.ts';
import { SharedReads } from './data.ts';
import type { Form } from './model.ts';
import { currentPage } from './router.ts';

/**
 * One form, read once for the workspace and the screen that open with it
 * (each asked for it: two `GET /v1/forms/{id}` for every form opened),
 * however late a lazy screen's code comes. Another page of the form (a tab,
 * a submission) gets the answer within two seconds, then reads anew: a form
 * someone changed elsewhere is not shown for long.
 */
const reads = new SharedReads<Form>({ keepMs: 2000, page: currentPage });

export function readForm(formId: string, signal: AbortSignal): Promise<Form> {
  return reads.read(
    formId,
    (shared) => call('getForm', { params: { id: formId }, signal: shared }),
    signal,
  );
}

/** A form as a save answered it: the next read of this page, or within two seconds, gets this one. */
export function formSavedAs(form: Form): void {
  reads.keep(form.id, form);
}
