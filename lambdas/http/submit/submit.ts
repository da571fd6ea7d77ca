import { defineContract } from '#http/contract.ts';
import { wantsHtml } from '#http/negotiate.ts';
import { publicRoute } from '#http/public-route.ts';
import { header } from '#http/request.ts';
import { flush } from '#metrics';
import { countOutcome, countRefusal } from './outcome-metrics.ts';
import { acceptSubmission } from './pipeline.ts';
import { errorResponse, outcomeResponse } from './responses.ts';
import { SHARED_STEP_ERRORS } from './step-errors.ts';
import { submitBodyMedia } from './submit-body-media.ts';
import { submitRequestOf } from './submit-request.ts';

/**
 * `POST /s/{key}`: the public endpoint every website posts to. Each post
 * counts one business metric (`outcome-metrics.ts`), flushed at the end.
 */
export const contract = defineContract({
  tag: 'Submit',
  description:
    'Public, no credentials. The steps run in order and the first failing one decides (docs/api-guide.md, "Processing order"). A browser (an `Accept` naming `text/html`) gets pages instead of JSON. A post dropped as a bot (honeypot, fill time, block lists, spam cap) is answered `200 { ok: true }` and nothing is stored.',
  bodyMedia: submitBodyMedia(),
  answers: [
    {
      status: 200,
      description: 'Accepted (or dropped as a bot); the thank-you page for a browser.',
      body: 'SubmitAccepted',
      alsoHtml: true,
    },
    {
      status: 303,
      description:
        'A browser post with a redirect: to `_redirect` (Pro) or the form’s `redirectUrl`.',
      body: null,
      headers: { location: 'Where the browser goes next.' },
    },
  ],
  errors: [
    ...SHARED_STEP_ERRORS,
    'upload_not_found',
    'upload_already_used',
    'upload_expired',
    'form_limit_reached',
    'submission_limit_reached',
    'plan_required',
    'captcha_failed',
    'captcha_unavailable',
    'empty_submission',
  ],
  cors: true,
  htmlErrors: true,
});

export const handler = publicRoute(contract, async (event) => {
  const html = wantsHtml(header(event, 'accept'));
  const request = submitRequestOf(event);
  try {
    const outcome = await acceptSubmission(request, new Date());
    countOutcome(outcome);
    return outcomeResponse(outcome, html, request.referer);
  } catch (error) {
    countRefusal(error);
    return errorResponse(error, html, request.referer);
  } finally {
    // The invocation's business metrics, as one EMF line per dimension set.
    flush();
  }
});
