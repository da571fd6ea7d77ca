import { ServiceError } from '#domain/errors.ts';
import { count } from '#metrics';
import type { SubmitOutcome } from './pipeline.ts';

/**
 * The error codes the submit endpoint answers with: a closed set, so the
 * `code` dimension of `SubmissionRejected` stays low-cardinality. A code not
 * listed here (one added later without updating this list) counts as `other`.
 */
const REJECTION_CODES: ReadonlySet<string> = new Set([
  'not_found',
  'origin_not_allowed',
  'rate_limited',
  'payload_too_large',
  'unsupported_media_type',
  'empty_submission',
  'uploads_disabled',
  'file_too_large',
  'too_many_files',
  'file_type_not_allowed',
  'form_closed',
  'captcha_failed',
  'captcha_unavailable',
  'submission_limit_reached',
  'invalid_request',
  'idempotency_key_reused',
  'busy',
  'internal_error',
]);

/**
 * Counts how a post ended: `SubmissionAccepted` (stored, not spam),
 * `SubmissionSpam` by `rule`, `SubmissionDropped` by `reason`,
 * `SubmissionReplayed` (a retry under its `Idempotency-Key`, nothing stored). Never a form,
 * team or submission id as a dimension; the handler flushes.
 */
export function countOutcome(outcome: SubmitOutcome): void {
  if (outcome.kind === 'replayed') count('SubmissionReplayed');
  else if (outcome.kind === 'dropped') count('SubmissionDropped', 1, { reason: outcome.reason });
  else if (outcome.spamRule) count('SubmissionSpam', 1, { rule: outcome.spamRule });
  else count('SubmissionAccepted');
}

/** Counts a refusal as `SubmissionRejected` by `status` and `code`; anything unexpected is 500. */
export function countRefusal(error: unknown): void {
  const status = error instanceof ServiceError ? error.status : 500;
  const code = error instanceof ServiceError ? error.code : 'internal_error';
  count('SubmissionRejected', 1, {
    status: String(status),
    code: REJECTION_CODES.has(code) ? code : 'other',
  });
}
