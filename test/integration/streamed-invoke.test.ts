import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { installAwsLambdaGlobal } from '#lib/local/awslambda-shim.ts';
import { type LambdaHandler, lambdaContext } from '#lib/local/lambda-runtime.ts';
import { serveStreamedInvoke } from '#lib/local/streamed-invoke.ts';

/**
 * The local gateway's STREAM relay on its own, with handlers written against
 * the runtime's `awslambda` API: status and headers before the body, 502
 * before the prelude, a cut connection after it, the timeout, backpressure.
 */

installAwsLambdaGlobal();

type StreamHandler = (
  event: unknown,
  stream: awslambda.HttpResponseStream,
  context: unknown,
) => Promise<void>;

let server: Server | undefined;
const failures: string[] = [];

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server?.closeAllConnections();
  server = undefined;
  failures.length = 0;
});

async function serving(handler: StreamHandler, timeoutSeconds = 10): Promise<string> {
  const streaming = awslambda.streamifyResponse(handler) as unknown as LambdaHandler;
  server = createServer((_req, res) => {
    void serveStreamedInvoke(
      res,
      streaming,
      {} as APIGatewayProxyEvent,
      lambdaContext('probe', timeoutSeconds),
      timeoutSeconds,
      (message) => failures.push(message),
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the local STREAM relay', () => {
  it('sends status and headers from the prelude, then the body as it is written, chunked', async () => {
    const url = await serving(async (_event, stream) => {
      const http = awslambda.HttpResponseStream.from(stream, {
        statusCode: 201,
        headers: { 'content-type': 'text/plain', 'x-probe': 'yes' },
      });
      http.write('first ');
      await sleep(300);
      http.end('last');
    });
    const started = performance.now();
    const response = await fetch(url);
    expect(response.status).toBe(201);
    expect(response.headers.get('x-probe')).toBe('yes');
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('first ');
    expect(performance.now() - started).toBeLessThan(250);
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      rest += new TextDecoder().decode(part.value);
    }
    expect(rest).toBe('last');
  });

  it('answers 502 when the handler fails before its prelude, or never uses HttpResponseStream.from', async () => {
    let url = await serving(async () => {
      throw new Error('boom');
    });
    let response = await fetch(url);
    expect(response.status).toBe(502);
    // DEFAULT_5XX as the stack shapes it: the envelope with API Gateway's request id.
    expect(await response.json()).toEqual({
      ok: false,
      error: 'internal_error',
      message: 'Internal server error',
      requestId: response.headers.get('x-amzn-requestid'),
    });
    expect(failures.join()).toContain('boom');
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));

    url = await serving(async (_event, stream) => {
      stream.setContentType('text/plain');
      stream.end('no prelude');
    });
    response = await fetch(url);
    expect(response.status).toBe(502);
    expect(failures.join()).toContain('HttpResponseStream.from');
  });

  it('cuts the connection when the handler fails after the prelude: the body never ends cleanly', async () => {
    const url = await serving(async (_event, stream) => {
      const http = awslambda.HttpResponseStream.from(stream, { statusCode: 200 });
      await pipeline(
        Readable.from(
          (async function* () {
            yield 'partial';
            await sleep(50);
            throw new Error('store failed mid-stream');
          })(),
        ),
        http,
      );
    });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    expect(failures.join()).toContain('store failed mid-stream');
  });

  it('ends a stream at the function timeout', async () => {
    const url = await serving(async (_event, stream) => {
      awslambda.HttpResponseStream.from(stream, { statusCode: 200 }).write('started');
      await sleep(5_000);
    }, 1);
    const started = performance.now();
    const response = await fetch(url);
    await expect(response.text()).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(failures.join()).toContain('Task timed out after 1 seconds');
  });

  it('passes backpressure to the handler: a client that stops reading stops the writes', async () => {
    const CHUNK = 1024 * 1024;
    let produced = 0;
    const url = await serving(async (_event, stream) => {
      const http = awslambda.HttpResponseStream.from(stream, { statusCode: 200 });
      await pipeline(
        Readable.from(
          (function* () {
            for (let i = 0; i < 200; i++) {
              produced += 1;
              yield Buffer.alloc(CHUNK, 97);
            }
          })(),
        ),
        http,
      );
    });
    let producedWhilePaused = 0;
    const received = await new Promise<number>((resolve, reject) => {
      request(url, (res) => {
        res.pause();
        setTimeout(() => {
          producedWhilePaused = produced;
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          res.on('end', () => resolve(bytes));
          res.resume();
        }, 500);
      })
        .on('error', reject)
        .end();
    });
    // While nothing was read, only socket and stream buffers filled (a few MB of 200).
    expect(producedWhilePaused).toBeLessThan(20);
    expect(received).toBe(200 * CHUNK);
    expect(produced).toBe(200);
  });
});
