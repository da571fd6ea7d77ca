import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { withLogContext } from '../log.ts';
import { requestIdOf } from './request.ts';
import type { HttpResponse } from './respond.ts';

/** Puts the request id on the log scope and on every response, errors included. */
export function withRequestId(
  inner: (event: APIGatewayProxyEvent, context: Context) => Promise<HttpResponse>,
) {
  return async (event: APIGatewayProxyEvent, context: Context): Promise<HttpResponse> => {
    const requestId = requestIdOf(event);
    const response = await withLogContext({ requestId }, () => inner(event, context));
    return {
      ...response,
      headers: { ...response.headers, 'cache-control': 'no-store', 'x-request-id': requestId },
    };
  };
}
