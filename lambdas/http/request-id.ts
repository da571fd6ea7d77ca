import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { log, withLogContext } from '../log.ts';
import { requestIdOf } from './request.ts';
import type { HttpResponse } from './respond.ts';

/**
 * Puts the request id on the log scope and on every response, errors
 * included, and logs one line per request. The line names the route
 * template, not the path, and the caller only by key id (added by auth).
 */
export function withRequestId(
  inner: (event: APIGatewayProxyEvent, context: Context) => Promise<HttpResponse>,
) {
  return async (event: APIGatewayProxyEvent, context: Context): Promise<HttpResponse> => {
    const requestId = requestIdOf(event);
    const started = performance.now();
    return withLogContext({ requestId }, async () => {
      const response = await inner(event, context);
      log.info('request', {
        method: event.httpMethod,
        resource: event.resource,
        status: response.statusCode,
        ms: Math.round(performance.now() - started),
      });
      return {
        ...response,
        headers: { ...response.headers, 'cache-control': 'no-store', 'x-request-id': requestId },
      };
    });
  };
}
