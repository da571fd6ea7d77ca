import middy from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ServiceError } from '../domain/errors.ts';
import { matchRoute } from '../routes.ts';
import { errorEnvelope } from './middleware/error-envelope.ts';
import { withRequestId } from './request-id.ts';
import type { HttpResponse } from './respond.ts';

/**
 * Every request no route takes: a known path with another method is 405
 * (with `Allow`), anything else 404. API Gateway would answer 403 "Missing
 * Authentication Token" for both, which tells a client nothing.
 */
export const handler = withRequestId(
  middy<APIGatewayProxyEvent, HttpResponse>()
    .use(errorEnvelope())
    .handler(async (event) => {
      const { allowed } = matchRoute(event.httpMethod, event.path);
      if (allowed.length > 0) {
        throw new ServiceError(
          405,
          'method_not_allowed',
          `${event.httpMethod} is not allowed here; use ${allowed.join(', ')}`,
          { headers: { allow: allowed.join(', ') } },
        );
      }
      throw new ServiceError(404, 'not_found', `No route for ${event.httpMethod} ${event.path}`);
    }),
);
