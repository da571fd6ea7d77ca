import type { ServerResponse } from 'node:http';
import { finished } from 'node:stream/promises';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import {
  LocalResponseStream,
  PRELUDE_CONTENT_TYPE,
  PRELUDE_DELIMITER_BYTES,
  streamingHighWaterMark,
} from './awslambda-shim.ts';
import { integrationFailure } from './gateway-errors.ts';
import { asInvocationOf, type LambdaHandler, withinTimeout } from './lambda-runtime.ts';

/**
 * What API Gateway does for a route in STREAM mode: invoke the function with
 * InvokeWithResponseStream, read the HttpResponseStream prelude (JSON, then
 * 8 NUL bytes) into the status line and headers, and pass the rest on as it
 * comes, chunked, without a content-length. Backpressure runs end to end: a
 * handler's write waits until the client's socket has taken the bytes.
 */

/** The prelude API Gateway reads; a missing status is 200. */
export interface StreamPrelude {
  statusCode?: number;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  cookies?: string[];
}

/** A prelude this long without its delimiter is not one. */
const MAX_PRELUDE_BYTES = 1024 * 1024;

/** Splits the prelude off the front of a streamed response, however the bytes are chunked. */
export class PreludeReader {
  #pending: Buffer = Buffer.alloc(0);

  /** The prelude and the body bytes after it once the delimiter is in; undefined until then. */
  push(chunk: Buffer): { prelude: StreamPrelude; rest: Buffer } | undefined {
    this.#pending = Buffer.concat([this.#pending, chunk]);
    // JSON text never holds a raw NUL, so the first one starts the delimiter.
    const end = this.#pending.indexOf(0);
    if (end === -1 || this.#pending.length < end + PRELUDE_DELIMITER_BYTES) {
      if (this.#pending.length > MAX_PRELUDE_BYTES) {
        throw new Error(`no prelude delimiter in the first ${MAX_PRELUDE_BYTES} bytes`);
      }
      return undefined;
    }
    const delimiter = this.#pending.subarray(end, end + PRELUDE_DELIMITER_BYTES);
    if (delimiter.some((byte) => byte !== 0)) {
      throw new Error(`the prelude must be followed by ${PRELUDE_DELIMITER_BYTES} NUL bytes`);
    }
    const prelude = JSON.parse(this.#pending.subarray(0, end).toString('utf8')) as StreamPrelude;
    if (typeof prelude !== 'object' || prelude === null) {
      throw new Error('the prelude is not a JSON object');
    }
    return { prelude, rest: this.#pending.subarray(end + PRELUDE_DELIMITER_BYTES) };
  }
}

/** Status and headers from a prelude; the length is the stream's business, not the handler's. */
export function responseHead(prelude: StreamPrelude): {
  status: number;
  headers: Record<string, string | string[]>;
} {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(prelude.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(prelude.multiValueHeaders ?? {})) {
    headers[name] = values.map(String);
  }
  if (prelude.cookies?.length) headers['set-cookie'] = prelude.cookies.map(String);
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'content-length' || lower === 'transfer-encoding') delete headers[name];
  }
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  return { status: prelude.statusCode ?? 200, headers };
}

/**
 * Runs a streaming handler for one request and writes its response to `res`.
 * Failures before the prelude is complete answer 502 as API Gateway does;
 * after it, the connection is cut so the client sees an incomplete body, not
 * a clean end. The function's timeout applies to the whole stream.
 */
export async function serveStreamedInvoke(
  res: ServerResponse,
  handler: LambdaHandler,
  event: APIGatewayProxyEvent,
  context: Context,
  timeoutSeconds: number,
  onFailure: (message: string) => void,
): Promise<void> {
  const reader = new PreludeReader();
  let sinkError: Error | undefined;
  const stream = new LocalResponseStream(async (chunk) => {
    try {
      let body = chunk;
      if (!res.headersSent) {
        if (stream.contentType !== PRELUDE_CONTENT_TYPE) {
          throw new Error(
            `a streamed response needs awslambda.HttpResponseStream.from (content type was ${stream.contentType})`,
          );
        }
        const split = reader.push(chunk);
        if (!split) return;
        const { status, headers } = responseHead(split.prelude);
        res.writeHead(status, headers);
        // Sent now, not with the first body bytes, which may be long in coming.
        res.flushHeaders();
        body = split.rest;
      }
      if (body.length > 0 && !res.write(body)) await drained(res);
    } catch (error) {
      sinkError = error instanceof Error ? error : new Error(String(error));
      throw sinkError;
    }
  }, streamingHighWaterMark(handler));

  // A client that goes away stops the handler's reads at its next write.
  res.once('close', () => {
    if (!res.writableFinished) stream.destroy(new Error('the client closed the connection'));
  });

  try {
    const invoked = asInvocationOf(context.functionName, () =>
      (handler as unknown as StreamingHandler)(event, stream, context),
    );
    if (typeof (invoked as Promise<unknown> | undefined)?.then !== 'function') {
      throw new Error('Streaming does not support non-async handlers.');
    }
    // Lambda ends the invocation when the handler has settled and the stream has ended.
    await withinTimeout(Promise.all([invoked, finished(stream)]), timeoutSeconds);
    if (!res.headersSent) {
      throw new Error('the stream ended before its prelude was complete (was anything written?)');
    }
    res.end();
  } catch (error) {
    onFailure(String(sinkError ?? error));
    stream.destroy();
    if (res.headersSent) res.destroy();
    else {
      const failure = integrationFailure();
      res.writeHead(failure.statusCode, failure.headers as Record<string, string>);
      res.end(failure.body);
    }
  }
}

type StreamingHandler = (
  event: unknown,
  responseStream: LocalResponseStream,
  context: Context,
) => unknown;

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
