import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { defineContract } from '#http/contract.ts';
import { CORS_HEADERS } from '#http/cors.ts';
import { header } from '#http/request.ts';
import { withRequestId } from '#http/request-id.ts';
import type { HttpResponse } from '#http/respond.ts';
import document from '#openapi' with { type: 'json' };

/**
 * `GET /v1/openapi.json`: the OpenAPI 3.1 document, public and cacheable:
 * `openapi.json` as `npm run openapi` wrote it from the routes' contracts
 * (bundled; a test keeps the file fresh), in the same text.
 */
const body = `${JSON.stringify(document, null, 2)}\n`;
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

export const contract = defineContract({
  tag: 'Docs',
  answers: [
    { status: 200, description: 'This document.', body: { mediaType: 'application/json' } },
    {
      status: 304,
      description: 'Not modified: `If-None-Match` named the current `ETag`.',
      body: null,
    },
  ],
  errors: [],
  cors: true,
});

export const handler = async (
  event: APIGatewayProxyEvent,
  context: Context,
): Promise<HttpResponse> => {
  const response = await inner(event, context);
  // withRequestId marks every answer no-store; this one may be cached.
  return { ...response, headers: { ...response.headers, 'cache-control': CACHE_CONTROL } };
};
