import middy from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { type Caller, callerAuth } from './middleware/caller-auth.ts';
import { errorEnvelope } from './middleware/error-envelope.ts';
import { jsonBody } from './middleware/json-body.ts';
import { withRequestId } from './request-id.ts';
import type { HttpResponse } from './respond.ts';

export interface ManagementRequest {
  event: APIGatewayProxyEvent;
  caller: Caller;
  /** Parsed JSON body, undefined when there was none. */
  body: unknown;
  pathParameters: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  /** Milliseconds left before the function times out. */
  remainingMs: () => number;
}

/** What the middlewares leave on the context for the handler. */
interface ManagementContext extends Context {
  caller: Caller;
  body: unknown;
}

/**
 * Wraps a management handler: request id and log scope, the error envelope,
 * API-key auth, JSON body. The handler itself only parses, calls the domain
 * and store, and maps the result.
 */
export function managementRoute(fn: (request: ManagementRequest) => Promise<HttpResponse>) {
  const chain = middy<APIGatewayProxyEvent, HttpResponse>()
    .use(errorEnvelope())
    // Authenticate first: an anonymous caller learns nothing about body parsing.
    .use(callerAuth())
    .use(jsonBody())
    .handler((event, context) => {
      const { caller, body } = context as ManagementContext;
      return fn({
        event,
        caller,
        body,
        pathParameters: event.pathParameters ?? {},
        query: event.queryStringParameters ?? {},
        remainingMs: () => context.getRemainingTimeInMillis(),
      });
    });
  return withRequestId(chain);
}

/** What an anonymous JSON route's handler gets: no caller. */
export type AnonymousRequest = Omit<ManagementRequest, 'caller'>;

/**
 * Wraps a JSON route anyone may call (sign-in and its verification): the
 * request id, the error envelope and the JSON body, without authentication.
 * Same origin as the dashboard: no CORS.
 */
export function anonymousRoute(fn: (request: AnonymousRequest) => Promise<HttpResponse>) {
  const chain = middy<APIGatewayProxyEvent, HttpResponse>()
    .use(errorEnvelope())
    .use(jsonBody())
    .handler((event, context) =>
      fn({
        event,
        body: (context as ManagementContext).body,
        pathParameters: event.pathParameters ?? {},
        query: event.queryStringParameters ?? {},
        remainingMs: () => context.getRemainingTimeInMillis(),
      }),
    );
  return withRequestId(chain);
}
