/**
 * A form's `retentionDays` (docs/submissions.md#retention): submissions
 * received before `now - retentionDays` are gone. Reads leave them out at
 * once; the retention purger deletes them (files included) later.
 */

/** About ten years: the bound of `retentionDays` (docs/forms.md#form-settings). */
export const RETENTION_DAYS_MAX = 3650;

/**
 * The receipt time (ISO) from which the form's submissions are still kept,
 * or undefined when it keeps them all. `daySeconds` is one day (86,400; the
 * test stack shortens it).
 */
export function keptFrom(
  retentionDays: number | null,
  now: Date,
  daySeconds: number,
): string | undefined {
  if (retentionDays === null) return undefined;
  return new Date(now.getTime() - retentionDays * daySeconds * 1000).toISOString();
}

/** Whether a submission received at `createdAt` is still kept. */
export function isKept(submission: { createdAt: string }, from: string | undefined): boolean {
  return from === undefined || submission.createdAt >= from;
}
