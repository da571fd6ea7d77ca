/**
 * One-time close schedules: one per form, named after it, so moving the
 * close date updates the same schedule and deleting it needs only the id.
 */
export function closeScheduleName(formId: string): string {
  return `close-form-${formId}`;
}

/**
 * `at()` takes whole seconds. Rounding up means the closer never runs before
 * the stored `autoCloseAt`, so it can require that the time has come.
 */
export function atExpression(autoCloseAt: string): string {
  const ms = Date.parse(autoCloseAt);
  const second = new Date(Math.ceil(ms / 1000) * 1000).toISOString().slice(0, 19);
  return `at(${second})`;
}

/** What the closer receives: the form and the close date the schedule was made for. */
export interface CloseFormEvent {
  formId: string;
  autoCloseAt: string;
}
