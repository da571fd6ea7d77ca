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
    idempotencyKey: valuesOf(event, 'idempotency-key'),
    wantsPage: wantsHtml(headers.accept),
  };
}

/**
 * Every value of a header, one a line as the client sent them: API Gateway
 * (and the local gateway) keeps only the last in `headers`, all of them in
 * `multiValueHeaders`, whose names keep the client's case.
 */
function valuesOf(event: APIGatewayProxyEvent, name: string): string[] | undefined {
  const values: string[] = [];
  for (const [key, list] of Object.entries(event.multiValueHeaders ?? {})) {
    if (key.toLowerCase() === name) values.push(...(list ?? []));
  }
  if (values.length > 0) return values;
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === name && value !== undefined) return [value];
  }
  return undefined;
}
