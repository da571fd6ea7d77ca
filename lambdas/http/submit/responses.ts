import { CHECK_YOUR_INBOX } from '#domain/confirmation-words.ts';
import { ServiceError } from '#domain/errors.ts';
import { errorPage, PAGE_HEADERS, thankYouPage } from '#http/post-answer-pages.ts';
import { errorJson, json } from '#http/respond.ts';
import { errorFields, log } from '#log';
import type { SubmitOutcome } from './pipeline.ts';

function html(statusCode: number, body: string, headers: Record<string, string> = {}) {
  return { statusCode, headers: { ...PAGE_HEADERS, ...headers }, body };
}

/** What a replay carries besides the first answer (docs/submit.md#idempotency-key). */
const REPLAYED = { 'idempotent-replayed': 'true' };

/**
 * JSON for scripts; for browsers a 303 to the redirect target or the
 * thank-you page, with a link back to the page that posted. A replay answers
 * as the first post did (JSON or page, the same id, warning and `Location`).
 */
export function outcomeResponse(
  outcome: SubmitOutcome,
  wantsHtml: boolean,
  backUrl: string | undefined,
) {
  if (outcome.kind === 'replayed') return replayResponse(outcome, backUrl);
  if (wantsHtml) {
    const { view } = outcome;
    if (view.redirect) {
      return { statusCode: 303, headers: { location: view.redirect }, body: '' };
    }
    return thanks(view, backUrl, {}, outcome.pending);
  }
  if (outcome.kind === 'dropped') {
    return json(200, { ok: true, ...(outcome.pending ? { pending: 'confirm_email' } : {}) });
  }
  return accepted(outcome.submissionId, outcome.nearLimit, {}, outcome.pending);
}

function replayResponse(
  { answer, view }: Extract<SubmitOutcome, { kind: 'replayed' }>,
  backUrl: string | undefined,
) {
  const pending = answer.pending === true;
  if (!answer.page) return accepted(answer.submissionId, answer.nearLimit, REPLAYED, pending);
  if (answer.location) {
    return { statusCode: 303, headers: { location: answer.location, ...REPLAYED }, body: '' };
  }
  return thanks(view, backUrl, REPLAYED, pending);
}

/**
 * The thank-you page; for a post that waits for confirmation, the words
 * that send the visitor to their inbox instead, never the address
 * (docs/submit.md#confirm-by-email).
 */
function thanks(
  view: Extract<SubmitOutcome, { kind: 'stored' }>['view'],
  backUrl: string | undefined,
  headers: Record<string, string> = {},
  pending = false,
) {
  const words = pending
    ? { title: 'Check your inbox', message: CHECK_YOUR_INBOX }
    : { title: view.title, message: view.message };
  return html(200, thankYouPage({ ...words, design: view.design, backUrl }), headers);
}

function accepted(
  submissionId: string,
  nearLimit: boolean,
  headers: Record<string, string> = {},
  pending = false,
) {
  return json(
    200,
    {
      ok: true as const,
      submissionId,
      ...(nearLimit ? { warning: 'near_limit' as const } : {}),
      ...(pending ? { pending: 'confirm_email' as const } : {}),
    },
    headers,
  );
}

const TITLES: Record<number, string> = {
  400: 'The submission could not be accepted',
  402: 'This form cannot take more submissions this month',
  403: 'This submission was refused',
  404: 'Form not found',
  405: 'Method not allowed',
  413: 'The submission is too large',
  415: 'The submission could not be read',
  422: 'The submission is empty',
  423: 'This form is closed',
  429: 'Too many submissions',
  500: 'Something went wrong',
};

/** A refusal in the endpoint's envelope, or as a page with the reason and a way back. */
export function errorResponse(error: unknown, wantsHtml: boolean, backUrl: string | undefined) {
  const failure =
    error instanceof ServiceError
      ? error
      : new ServiceError('internal_error', 'Something went wrong on our side');
  if (!(error instanceof ServiceError)) log.error('unexpected error', errorFields(error));
  if (wantsHtml) {
    const retryAfter = Number(failure.headers?.['retry-after']);
    const page = errorPage({
      status: failure.status,
      title: TITLES[failure.status] ?? 'The submission was not accepted',
      message: failure.message,
      backUrl,
      posted: true,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
    });
    return html(failure.status, page, failure.headers);
  }
  return errorJson(failure);
}
