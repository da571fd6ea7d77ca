import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { log, withLogContext } from '#log';
import { requestIdOf } from './request.ts';
import type { HttpResponse } from './respond.ts';

/**
 * Puts the request id on the log scope and on every response, errors
 * included, and logs one line per request. The line names the route
 * template, not the path, and the caller only by key id (added by auth).
 * A HEAD request is answered as its GET, without the body (answersHead).
 */
export function withRequestId(
  inner: (event: APIGatewayProxyEvent, context: Context) => Promise<HttpResponse>,
) {
  return (event: APIGatewayProxyEvent, context: Context): Promise<HttpResponse> =>
    inRequestScope(event, async (requestId) => {
      const response = await inner(event, context);
      const headers = { ...response.headers, ...requestIdHeaders(requestId) };
      const head = event.httpMethod.toUpperCase() === 'HEAD';
      return {
        status: response.statusCode,
        result: head
          ? { ...response, headers, body: '', isBase64Encoded: false }
          : { ...response, headers },
      };
    });
}

/**
 * Headers every response carries, streamed ones included. `nosniff`: a
 * browser takes a JSON (or CSV) answer as what its content type says, never
 * as a script or a page, whatever user text it holds.
 */
export function requestIdHeaders(requestId: string): Record<string, string> {
  return {
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-request-id': requestId,
  };
}

/**
 * Runs one request inside its log scope and writes its log line when `run`
 * settles, with the status (and any extra fields) `run` reports. A streamed
 * response reports only once its body is sent, so `ms` covers the stream.
 */
export function inRequestScope<T>(
  event: APIGatewayProxyEvent,
  run: (
    requestId: string,
  ) => Promise<{ status: number; result: T; fields?: Record<string, unknown> }>,
): Promise<T> {
  const requestId = requestIdOf(event);
  const started = performance.now();
  return withLogContext({ requestId }, async () => {
    const { status, result, fields } = await run(requestId);
    log.info('request', {
      method: event.httpMethod,
      resource: event.resource,
      status,
      ms: Math.round(performance.now() - started),
      ...fields,
    });
    return result;
  });
}
