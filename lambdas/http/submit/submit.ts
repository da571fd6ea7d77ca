import type { APIGatewayProxyEvent } from 'aws-lambda';
import { canonicalIp } from '#domain/addresses.ts';
import { countryOf, deviceClassOf } from '#domain/visitor.ts';
import { wantsHtml } from '#http/negotiate.ts';
import { bodyBytes, header } from '#http/request.ts';
import { withRequestId } from '#http/request-id.ts';
import { flush } from '#metrics';
import { countOutcome, countRefusal } from './outcome-metrics.ts';
import { acceptSubmission, type SubmitRequest } from './pipeline.ts';
import { errorResponse, outcomeResponse } from './responses.ts';

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

function submitRequestOf(event: APIGatewayProxyEvent): SubmitRequest {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    headers[name.toLowerCase()] = value;
  }
  return {
    key: event.pathParameters?.key,
    contentType: headers['content-type'],
    body: bodyBytes(event),
    // The API's own view of the caller; X-Forwarded-For is whatever the client wrote.
    ip: canonicalIp(event.requestContext?.identity?.sourceIp ?? ''),
    country: countryOf(headers),
    deviceClass: deviceClassOf(headers),
    userAgent: headers['user-agent'] ?? '',
    origin: headers.origin,
    referer: headers.referer,
  };
}
