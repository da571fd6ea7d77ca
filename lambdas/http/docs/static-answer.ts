import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Contract } from '#http/contract.ts';
import { withContractCors } from '#http/public-route.ts';
import { header } from '#http/request.ts';
import { withRequestId } from '#http/request-id.ts';
import type { HttpResponse } from '#http/respond.ts';

/** Five minutes fresh in any cache; a deploy changes the ETag. */
const CACHE_CONTROL = 'public, max-age=300';

export interface StaticBody {
  body: string;
  headers: Record<string, string>;
}

/** A strong ETag of a body, as `GET /v1/openapi.json` builds it. */
export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** A static route's answers for its contract: the body, or 304 when `If-None-Match` names its ETag. */
export function staticAnswers(description: string, mediaType: string) {
  return [
    { status: 200, description, body: { mediaType } },
    {
      status: 304,
      description: 'Not modified: `If-None-Match` named the current `ETag`.',
      body: null,
    },
  ] as const;
}

/**
 * A handler answering a body fixed at module init (chosen per request by
 * `pick`): `200` with its headers, cacheable for five minutes, or `304` when
 * `If-None-Match` names its ETag; with the CORS its contract declares.
 */
export function staticAnswer(
  declared: Contract,
  pick: (event: APIGatewayProxyEvent) => StaticBody,
) {
  const etags = new Map<string, string>();
  const inner = withRequestId(async (event) => {
    const { body, headers } = pick(event);
    let etag = etags.get(body);
    if (etag === undefined) {
      etag = etagOf(body);
      etags.set(body, etag);
    }
    if (header(event, 'if-none-match') === etag) {
      return withContractCors(declared, {
        statusCode: 304,
        headers: { ...headers, etag },
        body: '',
      });
    }
    return withContractCors(declared, { statusCode: 200, headers: { ...headers, etag }, body });
  });
  return async (event: APIGatewayProxyEvent, context: Context): Promise<HttpResponse> => {
    const response = await inner(event, context);
    // withRequestId marks every answer no-store; these may be cached.
    return { ...response, headers: { ...response.headers, 'cache-control': CACHE_CONTROL } };
  };
}
