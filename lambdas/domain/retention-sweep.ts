/**
 * A form's retention sweep (docs/submissions.md#retention): one one-time
 * schedule per form, named after it, moved forward by each purge, so a form
 * that receives nothing is still swept every `retentionSweepSeconds`.
 */
export function retentionSweepName(formId: string): string {
  return `retention-sweep-${formId}`;
}

/** What the retention sweeper receives. */
export interface RetentionSweepEvent {
  formId: string;
}
