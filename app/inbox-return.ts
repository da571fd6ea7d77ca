/**
 * The submission a person last had open, so the inbox they go back to
 * (`u`, Escape, "Back to the inbox", the browser's back) puts focus on its
 * row (docs/dashboard.md#keys-on-a-submission). Held in memory for the
 * page's life: a reload starts the inbox at its first row.
 */
let lastOpen: { formId: string; submissionId: string } | undefined;

/** The submission page shows `submissionId`. */
export function openedSubmission(formId: string, submissionId: string): void {
  lastOpen = { formId, submissionId };
}

/** The submission of `formId` last open, once: a later list of the form starts at its top. */
export function returnedFrom(formId: string): string | undefined {
  const back = lastOpen?.formId === formId ? lastOpen.submissionId : undefined;
  lastOpen = undefined;
  return back;
}
