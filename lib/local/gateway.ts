import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { fallbackRoute, matchRoute, routeFunctions } from '#routes';
import { isStreamingHandler } from './awslambda-shim.ts';
import { integrationFailure, tooLarge } from './gateway-errors.ts';
import { invokeWithTimeout, lambdaContext, loadHandler } from './lambda-runtime.ts';
import { serveStreamedInvoke } from './streamed-invoke.ts';

/**
 * The local stand-in for the REST API: serves every entry of the route table
 * by calling its handler with the event shape API Gateway's Lambda proxy
 * integration builds, and answers with what the handler returns; a
 * `streaming` route is invoked and relayed as STREAM mode does
 * (streamed-invoke.ts).
 */

/** Content types API Gateway passes to Lambda base64-encoded (the stack's binaryMediaTypes). */
export const BINARY_MEDIA_TYPES = ['multipart/form-data'];
/** API Gateway's payload limit. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** A synchronous Lambda invoke carries at most this much event JSON. */
const MAX_EVENT_BYTES = 6 * 1024 * 1024;
/** What a request that reaches a closing gateway gets: API Gateway's 503 shape. */
const UNAVAILABLE: APIGatewayProxyResult = {
  statusCode: 503,
  headers: { connection: 'close' },
  body: '{"message":"Service Unavailable"}',
};
/** How long close() lets requests in flight finish before cutting their connections. */
const DRAIN_MS = 10_000;
export const LOCAL_STAGE = 'local';

export interface Gateway {
  url: string;
  port: number;
  /**
   * Stops accepting connections, answers any new request on a kept-alive connection with 503,
   * lets the requests in flight finish (up to `drainMs`, default 10 s) and then closes every
   * connection. Once it resolves no handler the gateway started is still running, so the
   * databases behind them can be stopped.
   */
  close(drainMs?: number): Promise<void>;
}

export async function startGateway(options: { port: number; host?: string }): Promise<Gateway> {
  /** Requests being served, each settled once its handler is done and its answer sent. */
  const inFlight = new Set<Promise<void>>();
  const pending = new Set<ServerResponse>();
  let closing: Promise<void> | undefined;
  const server = createServer((req, res) => {
    if (closing) {
      send(res, UNAVAILABLE);
      return;
    }
    pending.add(res);
    const answered = new Promise<void>((resolve) => res.once('close', resolve));
    const served = serve(req, res).catch((error: unknown) => {
      process.stderr.write(
        `local gateway: ${error instanceof Error ? error.stack : String(error)}\n`,
      );
      if (!res.headersSent) send(res, integrationFailure());
      else res.destroy();
    });
    const work = Promise.all([served, answered]).then(() => {
      inFlight.delete(work);
      pending.delete(res);
    });
    inFlight.add(work);
  });
  await listen(server, options.port, options.host ?? '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  const close = async (drainMs: number) => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Answers still to come end their connection, so no client reuses it for a new request.
    for (const res of pending) if (!res.headersSent) res.setHeader('connection', 'close');
    server.closeIdleConnections();
    if (inFlight.size > 0) {
      const timer = new AbortController();
      const outcome = await Promise.race([
        Promise.all(inFlight).then(() => 'drained' as const),
        sleep(drainMs, 'timeout' as const, { signal: timer.signal }).catch(() => 'cancelled'),
      ]);
      timer.abort();
      if (outcome === 'timeout') {
        process.stderr.write(
          `local gateway: ${inFlight.size} request(s) still running after ${drainMs} ms; closing their connections\n`,
        );
      }
    }
    server.closeAllConnections();
    await closed;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: (drainMs = DRAIN_MS) => {
      closing ??= close(drainMs);
      return closing;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Each route's function (its own, or its group's), so a grouped route runs through its group's module as on AWS. */
const functionOfRoute = new Map(
  routeFunctions().flatMap((fn) => fn.routes.map((route) => [route.name, fn] as const)),
);

async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  if (body === undefined) {
    send(res, tooLarge());
    return;
  }
  const url = new URL(req.url ?? '/', 'http://local');
  const method = (req.method ?? 'GET').toUpperCase();
  const { match } = matchRoute(method, url.pathname);
  const fn = match && functionOfRoute.get(match.route.name);
  const target = match
    ? {
        ...match.route,
        name: fn?.name ?? match.route.name,
        handler: fn?.handler ?? match.route.handler,
        resource: match.route.path,
        pathParameters: match.pathParameters,
      }
    : { ...fallbackRoute, resource: '/{proxy+}', pathParameters: { proxy: url.pathname.slice(1) } };
  const event = buildEvent(req, url, method, body, target.resource, target.pathParameters);
  if (Buffer.byteLength(JSON.stringify(event)) > MAX_EVENT_BYTES) {
    // Lambda refuses the invoke and API Gateway answers 413 itself.
    send(res, tooLarge());
    return;
  }
  const handler = await loadHandler(target.handler);
  const context = lambdaContext(target.name, target.timeoutSeconds, event.requestContext.requestId);
  const streaming = 'streaming' in target && target.streaming;
  // On AWS a mismatch fails too: API Gateway cannot read the other kind of answer.
  if (streaming !== isStreamingHandler(handler)) {
    process.stderr.write(
      `local gateway: ${target.name} is ${streaming ? '' : 'not '}a streaming route but its handler is ${streaming ? 'not ' : ''}wrapped in awslambda.streamifyResponse\n`,
    );
    send(res, integrationFailure());
    return;
  }
  if (streaming) {
    await serveStreamedInvoke(res, handler, event, context, target.timeoutSeconds, (message) =>
      process.stderr.write(`local gateway: ${target.name} failed: ${message}\n`),
    );
    return;
  }
  let result: APIGatewayProxyResult;
  try {
    result = await invokeWithTimeout(handler, event, context, target.timeoutSeconds);
  } catch (error) {
    // What API Gateway answers when the function itself fails or times out.
    process.stderr.write(`local gateway: ${target.name} failed: ${String(error)}\n`);
    send(res, integrationFailure());
    return;
  }
  if (!result || typeof result.statusCode !== 'number') {
    send(res, integrationFailure());
    return;
  }
  send(res, result);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function buildEvent(
  req: IncomingMessage,
  url: URL,
  method: string,
  body: Buffer,
  resource: string,
  pathParameters: Record<string, string>,
): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const value = req.rawHeaders[i + 1]!;
    headers[name] = value;
    multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
  }
  const query: Record<string, string> = {};
  const multiValueQuery: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) {
    query[name] = value;
    multiValueQuery[name] = [...(multiValueQuery[name] ?? []), value];
  }
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const binary = BINARY_MEDIA_TYPES.includes(contentType);
  const hasQuery = Object.keys(query).length > 0;
  const now = Date.now();
  const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return {
    resource,
    path: url.pathname,
    httpMethod: method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiValueQuery : null,
    pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : null,
    stageVariables: null,
    body: body.length === 0 ? null : binary ? body.toString('base64') : body.toString('utf8'),
    isBase64Encoded: binary && body.length > 0,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: null,
      domainName: req.headers.host ?? '127.0.0.1',
      extendedRequestId: randomUUID(),
      httpMethod: method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp,
        user: null,
        userAgent: req.headers['user-agent'] ?? null,
        userArn: null,
      },
      path: `/${LOCAL_STAGE}${url.pathname}`,
      protocol: `HTTP/${req.httpVersion}`,
      requestId: randomUUID(),
      requestTime: new Date(now).toUTCString(),
      requestTimeEpoch: now,
      resourceId: 'local',
      resourcePath: resource,
      stage: LOCAL_STAGE,
    },
  };
}

function send(res: ServerResponse, result: APIGatewayProxyResult): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
    headers[name] = values.map(String);
  }
  const body = result.body
    ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8')
    : Buffer.alloc(0);
  if (!('content-type' in lowerKeys(headers))) headers['content-type'] = 'application/json';
  res.writeHead(result.statusCode, { ...headers, 'content-length': String(body.length) });
  res.end(body);
}

function lowerKeys(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
