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
  requestHeaders: {
    'Idempotency-Key': {
      description:
        'One key per post, kept for its retries (docs/submit.md, "Idempotency-Key"): a retry with the same key and the same body within 24 h answers the first answer again, with `Idempotent-Replayed: true`, and stores nothing; the same key with another body is `422 idempotency_key_reused`. Keys are per form. Sent bare or as a quoted string (the IETF draft’s sf-string).',
      schema: {
        type: 'string',
        minLength: 1,
        maxLength: 257,
        pattern: '^("[\\x21-\\x7e]{1,255}"|[\\x21-\\x7e]{1,255})$',
      },
    },
  },
  answers: [
    {
      status: 200,
      description: 'Accepted (or dropped as a bot); the thank-you page for a browser.',
      body: 'SubmitAccepted',
      alsoHtml: true,
      headers: {
        'idempotent-replayed': '`true` on a replay of a post sent with its Idempotency-Key.',
      },
    },
    {
      status: 303,
      description:
        'A browser post with a redirect: to `_redirect` (Pro) or the form’s `redirectUrl`.',
      body: null,
      headers: {
        location: 'Where the browser goes next.',
        'idempotent-replayed': '`true` on a replay of a post sent with its Idempotency-Key.',
      },
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
    'idempotency_key_reused',
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
