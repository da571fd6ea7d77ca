import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { errorFields, log } from '#log';
import type { Contract } from './contract.ts';
import { type ContractInput, contractInput } from './contract-input.ts';
import { type Caller, type CallerAuthOptions, callerAuth } from './middleware/caller-auth.ts';
import { errorEnvelope } from './middleware/error-envelope.ts';
import { pathIds } from './middleware/path-ids.ts';
import { inRequestScope, requestIdHeaders } from './request-id.ts';
import type { HttpResponse } from './respond.ts';

export interface StreamingRequest<C extends Contract> {
  event: APIGatewayProxyEvent;
  caller: Caller;
  pathParameters: Record<string, string | undefined>;
  /** The query string, parsed by the route's contract when read. */
  input: ContractInput<C>;
}

/** A response whose body is read as it is sent: nothing holds it whole. */
export interface StreamedResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Readable;
}

type ChainResult = HttpResponse | StreamedResponse;
type Middleware = MiddlewareObj<APIGatewayProxyEvent, ChainResult>;

/**
 * Wraps a handler of a `streaming: true` route (API Gateway STREAM mode,
 * which invokes the function with InvokeWithResponseStream). The same chain
 * as management routes runs first: request id and log scope, the error
 * envelope, API-key auth (one request against the key's rate limit, however
 * long the stream; `auth` as callerAuth takes it). Anything thrown before the body starts is the usual JSON
 * envelope with its status. Then the status and headers go out as the
 * HttpResponseStream prelude and the body is piped with backpressure: a slow
 * client slows the reads behind the body instead of filling memory.
 */
export function streamingRoute<C extends Contract>(
  declared: C,
  fn: (request: StreamingRequest<C>) => Promise<StreamedResponse>,
  auth: CallerAuthOptions = {},
) {
  const chain = middy<APIGatewayProxyEvent, ChainResult>()
    // Both only ever set a JSON HttpResponse, which is one of ChainResult.
    .use(errorEnvelope() as Middleware)
    .use(callerAuth(auth) as Middleware)
    .use(pathIds<ChainResult>())
    .handler((event, context) =>
      fn({
        event,
        caller: (context as unknown as { caller: Caller }).caller,
        pathParameters: event.pathParameters ?? {},
        input: contractInput(declared, {
          query: event.queryStringParameters ?? {},
          body: undefined,
        }),
      }),
    );

  return awslambda.streamifyResponse(
    async (event: APIGatewayProxyEvent, responseStream, context): Promise<void> => {
      const failure = await inRequestScope(event, async (requestId) => {
        const response = await chain(event, context);
        const body =
          typeof response.body === 'string' ? Readable.from([response.body]) : response.body;
        const stream = awslambda.HttpResponseStream.from(responseStream, {
          statusCode: response.statusCode,
          headers: { ...response.headers, ...requestIdHeaders(requestId) },
        });
        try {
          await pipeline(body, stream);
          return { status: response.statusCode, result: undefined };
        } catch (error) {
          // The status has gone out already; the client sees the body end early.
          log.error('response stream failed', errorFields(error));
          return { status: response.statusCode, result: error, fields: { streamFailed: true } };
        }
      });
      // Failing the invocation makes the runtime end the stream with an error
      // trailer, and the Lambda error metric counts it.
      if (failure) throw failure;
    },
  );
}
