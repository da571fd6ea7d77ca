import { ServiceError } from '#domain/errors.ts';
import { errorPage, PAGE_HEADERS, thankYouPage } from '#http/post-answer-pages.ts';
import { errorJson, json } from '#http/respond.ts';
import { errorFields, log } from '#log';
import type { SubmitOutcome } from './pipeline.ts';

function html(statusCode: number, body: string, headers: Record<string, string> = {}) {
  return { statusCode, headers: { ...PAGE_HEADERS, ...headers }, body };
}

/**
 * JSON for scripts; for browsers a 303 to the redirect target or the
 * thank-you page, with a link back to the page that posted.
 */
export function outcomeResponse(
  outcome: SubmitOutcome,
  wantsHtml: boolean,
  backUrl: string | undefined,
) {
  if (wantsHtml) {
    const { view } = outcome;
    if (view.redirect) {
      return { statusCode: 303, headers: { location: view.redirect }, body: '' };
    }
    return html(
      200,
      thankYouPage({ title: view.title, message: view.message, design: view.design, backUrl }),
    );
  }
  if (outcome.kind === 'dropped') return json(200, { ok: true });
  return json(
    200,
    outcome.nearLimit
      ? { ok: true, submissionId: outcome.submissionId, warning: 'near_limit' }
      : { ok: true, submissionId: outcome.submissionId },
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
    const page = errorPage({
      status: failure.status,
      title: TITLES[failure.status] ?? 'The submission was not accepted',
      message: failure.message,
      backUrl,
    });
    return html(failure.status, page, failure.headers);
  }
  return errorJson(failure);
}
