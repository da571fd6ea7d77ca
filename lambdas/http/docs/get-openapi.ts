import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { CORS_HEADERS } from '#http/cors.ts';
import { header } from '#http/request.ts';
import { withRequestId } from '#http/request-id.ts';
import type { HttpResponse } from '#http/respond.ts';
import { openApiJson } from './openapi-document.ts';

/**
 * `GET /v1/openapi.json`: the OpenAPI 3.1 document, public and cacheable. It
 * is built once per container from the same table and schemas that
 * `npm run openapi` writes to `openapi.json`, so the two are the same text.
 */
const body = openApiJson();
const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** Five minutes fresh in any cache; a deploy changes the ETag. */
const CACHE_CONTROL = 'public, max-age=300';

const inner = withRequestId(async (event) => {
  const headers = { ...CORS_HEADERS, etag };
  if (header(event, 'if-none-match') === etag) return { statusCode: 304, headers, body: '' };
  return {
    statusCode: 200,
    headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
    body,
  };
});

export const handler = async (
  event: APIGatewayProxyEvent,
  context: Context,
): Promise<HttpResponse> => {
  const response = await inner(event, context);
  // withRequestId marks every answer no-store; this one may be cached.
  return { ...response, headers: { ...response.headers, 'cache-control': CACHE_CONTROL } };
};
