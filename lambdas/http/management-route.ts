import middy from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Contract, ContractResponse } from './contract.ts';
import { type ContractInput, contractInput } from './contract-input.ts';
import { type Caller, callerAuth } from './middleware/caller-auth.ts';
import { errorEnvelope } from './middleware/error-envelope.ts';
import { jsonBody } from './middleware/json-body.ts';
import { pathIds } from './middleware/path-ids.ts';
import { withRequestId } from './request-id.ts';
import type { HttpResponse } from './respond.ts';

export interface ManagementRequest<C extends Contract> {
  event: APIGatewayProxyEvent;
  caller: Caller;
  /** The query string and JSON body, parsed by the route's contract when read. */
  input: ContractInput<C>;
  pathParameters: Record<string, string | undefined>;
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
 * authentication (a Bearer key or a session), the JSON body, the shapes of
 * the path ids, and its input read through its contract. The handler itself only parses, calls the
 * domain and store, and maps the result.
 */
export function managementRoute<C extends Contract>(
  declared: C,
  fn: (request: ManagementRequest<C>) => Promise<ContractResponse<C>>,
) {
  const chain = middy<APIGatewayProxyEvent, HttpResponse>()
    .use(errorEnvelope())
    // Authenticate first: an anonymous caller learns nothing about body parsing.
    .use(callerAuth())
    .use(jsonBody())
    .use(pathIds())
    .handler((event, context) => {
      const { caller, body } = context as ManagementContext;
      return fn({
        event,
        caller,
        input: contractInput(declared, { query: event.queryStringParameters ?? {}, body }),
        pathParameters: event.pathParameters ?? {},
        remainingMs: () => context.getRemainingTimeInMillis(),
      });
    });
  return withRequestId(chain);
}

/** What an anonymous JSON route's handler gets: no caller. */
export type AnonymousRequest<C extends Contract> = Omit<ManagementRequest<C>, 'caller'>;

/**
 * Wraps a JSON route anyone may call (sign-in and its verification): the
 * request id, the error envelope and the JSON body, without authentication.
 * Same origin as the dashboard: no CORS.
 */
export function anonymousRoute<C extends Contract>(
  declared: C,
  fn: (request: AnonymousRequest<C>) => Promise<ContractResponse<C>>,
) {
  const chain = middy<APIGatewayProxyEvent, HttpResponse>()
    .use(errorEnvelope())
    .use(jsonBody())
    .handler((event, context) =>
      fn({
        event,
        input: contractInput(declared, {
          query: event.queryStringParameters ?? {},
          body: (context as ManagementContext).body,
        }),
        pathParameters: event.pathParameters ?? {},
        remainingMs: () => context.getRemainingTimeInMillis(),
      }),
    );
  return withRequestId(chain);
}
