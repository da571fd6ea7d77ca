import { wantsHtml } from '#http/negotiate.ts';
import { header } from '#http/request.ts';
import { withRequestId } from '#http/request-id.ts';
import { flush } from '#metrics';
import { countOutcome, countRefusal } from './outcome-metrics.ts';
import { acceptSubmission } from './pipeline.ts';
import { errorResponse, outcomeResponse } from './responses.ts';
import { submitRequestOf } from './submit-request.ts';

/**
 * `POST /s/{key}`: the public endpoint every website posts to. Each post
 * counts one business metric (`outcome-metrics.ts`), flushed at the end.
 */
export const handler = withRequestId(async (event) => {
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
