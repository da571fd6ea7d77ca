import type { APIGatewayProxyEvent } from 'aws-lambda';
import { canonicalIp } from '#domain/addresses.ts';
import { countryOf, deviceClassOf } from '#domain/visitor.ts';
import { wantsHtml } from '#http/negotiate.ts';
import { bodyBytes } from '#http/request.ts';
import type { SubmitRequest } from './pipeline.ts';

/** What the public routes under `/s/{key}` know of a request: the visitor and the body. */
export function submitRequestOf(event: APIGatewayProxyEvent): SubmitRequest {
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
    idempotencyKey: headers['idempotency-key'],
    wantsPage: wantsHtml(headers.accept),
  };
}
