import type { $ZodType } from 'zod/v4/core';
import { type BulkTarget, effectiveAsOf, stillTargeted } from '#domain/bulk-target.ts';
import { ERROR_CODES, type ErrorCode } from '#domain/errors.ts';
import { defineContract } from '#http/contract.ts';
import { errorBody, json } from '#http/respond.ts';
import { targetedSubmissions } from '#store/folder-reads.ts';
import {
  type BulkOptions,
  editSubmissions,
  SUBMISSIONS_PER_TRANSACTION,
  type SubmissionEdit,
} from '#store/submission-changes.ts';

/** Stop starting batches this long before the function's own timeout. */
const SAFETY_MS = 3_000;

/**
 * Runs a bulk edit over a target and answers `{ count }`; or, when the
 * function's time ran out first, 503 `incomplete` with the count so far: the
 * same request changes only what is still different, so sending it again
 * finishes the job exactly.
 */
export async function bulkEdit(
  formId: string,
  target: BulkTarget,
  edit: SubmissionEdit,
  remainingMs: () => number,
  afterCommit?: BulkOptions['afterCommit'],
) {
  const now = new Date();
  const batches = targetedSubmissions(
    formId,
    target,
    (asOf) => effectiveAsOf(asOf, now),
    SUBMISSIONS_PER_TRANSACTION,
  );
  // Checked on every read of a submission, the re-read after a lost race included.
  const targetedEdit: SubmissionEdit = (submission) =>
    stillTargeted(target, submission) ? edit(submission) : undefined;
  const outcome = await editSubmissions(formId, batches, targetedEdit, {
    deadline: now.getTime() + remainingMs() - SAFETY_MS,
    afterCommit,
  });
  if (outcome.complete) return json(200, { count: outcome.count });
  return json(
    ERROR_CODES.incomplete,
    {
      ...errorBody(
        'incomplete',
        `Changed ${outcome.count} submissions before the time limit; send the same request again to finish`,
      ),
      count: outcome.count,
    },
    { 'retry-after': '1' },
  );
}

/** The contract of a bulk change: its body, and the count of what changed (503 when cut short). */
export function bulkContract<B extends $ZodType>(
  body: B,
  description: string,
  errors: readonly ErrorCode[] = [],
) {
  return defineContract({
    tag: 'Submissions',
    body,
    answers: [{ status: 200, description, body: 'Count' }],
    errors: ['incomplete', ...errors],
  });
}
