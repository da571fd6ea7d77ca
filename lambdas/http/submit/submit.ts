import type { APIGatewayProxyEvent } from 'aws-lambda';
import { canonicalIp } from '#domain/addresses.ts';
import { countryOf, deviceClassOf } from '#domain/visitor.ts';
import { wantsHtml } from '#http/negotiate.ts';
import { bodyBytes, header } from '#http/request.ts';
import { withRequestId } from '#http/request-id.ts';
import { acceptSubmission, type SubmitRequest } from './pipeline.ts';
import { errorResponse, outcomeResponse } from './responses.ts';

/** `POST /s/{key}`: the public endpoint every website posts to. */
export const handler = withRequestId(async (event) => {
  const html = wantsHtml(header(event, 'accept'));
  const request = submitRequestOf(event);
  try {
    return outcomeResponse(await acceptSubmission(request, new Date()), html, request.referer);
  } catch (error) {
    return errorResponse(error, html, request.referer);
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
