/**
 * `awslambda` is a global the Lambda Node.js runtime defines before it loads
 * a handler module. `streamifyResponse(handler)` marks a handler as streaming
 * (the runtime then calls it with `(event, responseStream, context)` and
 * waits for the stream to end); `HttpResponseStream.from(stream, { statusCode,
 * headers })` makes the first write send the JSON prelude and 8 NUL bytes
 * that API Gateway turns into the status line and headers.
 *
 * The declarations are @types/aws-lambda's (handler.d.ts); this reference
 * makes them visible to every module under lambdas/, also one that imports
 * nothing from 'aws-lambda'. Redeclaring them here would clash with that
 * file. Locally, lib/local/awslambda-shim.ts defines the same global.
 */
/// <reference types="aws-lambda" />
