import middy from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ServiceError } from '#domain/errors.ts';
import { matchRoute } from '#routes';
import { CORS_HEADERS } from './cors.ts';
import { errorEnvelope } from './middleware/error-envelope.ts';
import { wantsHtml } from './negotiate.ts';
import { methodNotAllowedPage, PAGE_HEADERS } from './post-answer-pages.ts';
import { header } from './request.ts';
import { withRequestId } from './request-id.ts';
import type { HttpResponse } from './respond.ts';

/** Preflights are cached a day: the answer never changes. */
const PREFLIGHT_MAX_AGE = '86400';

/**
 * Every request no route takes: a known path with another method is 405
 * (with `Allow`), anything else 404. API Gateway would answer 403 "Missing
 * Authentication Token" for both, which tells a client nothing. Public paths
 * (the submit endpoint) answer CORS preflights and carry the CORS header on
 * every answer, and a browser that opens one gets a page saying what it is.
 */
export const handler = withRequestId(async (event, context) => {
  const { allowed, isPublic } = matchRoute(event.httpMethod, event.path);
  if (!isPublic) return envelope(event, context);
  if (event.httpMethod.toUpperCase() === 'OPTIONS') {
    return {
      statusCode: 204,
      headers: {
        ...CORS_HEADERS,
        'access-control-allow-methods': [...allowed, 'OPTIONS'].join(', '),
        'access-control-allow-headers': requestedHeaders(event),
        'access-control-max-age': PREFLIGHT_MAX_AGE,
      },
      body: '',
    };
  }
  const allow = [...allowed, 'OPTIONS'].join(', ');
  if (wantsHtml(header(event, 'accept'))) {
    return {
      statusCode: 405,
      headers: { ...PAGE_HEADERS, ...CORS_HEADERS, allow },
      body: methodNotAllowedPage(),
    };
  }
  const response = await envelope(event, context);
  return { ...response, headers: { ...response.headers, ...CORS_HEADERS, allow } };
});

/** Echoes the preflight's header list when it is a plain list of header names. */
function requestedHeaders(event: APIGatewayProxyEvent): string {
  const asked = header(event, 'access-control-request-headers') ?? '';
  return /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/.test(asked) &&
    asked.length <= 1000
    ? asked
    : 'content-type, accept';
}

const envelope = middy<APIGatewayProxyEvent, HttpResponse>()
  .use(errorEnvelope())
  .handler(async (event) => {
    const { allowed } = matchRoute(event.httpMethod, event.path);
    if (allowed.length > 0) {
      throw new ServiceError(
        'method_not_allowed',
        `${event.httpMethod} is not allowed here; use ${allowed.join(', ')}`,
        { headers: { allow: allowed.join(', ') } },
      );
    }
    throw new ServiceError('not_found', `No route for ${event.httpMethod} ${event.path}`);
  });
