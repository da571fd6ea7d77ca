import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import {
  HANDLER_STREAMING,
  installAwsLambdaGlobal,
  isStreamingHandler,
  LocalResponseStream,
  PRELUDE_CONTENT_TYPE,
} from '#lib/local/awslambda-shim.ts';
import { PreludeReader, responseHead } from '#lib/local/streamed-invoke.ts';

installAwsLambdaGlobal();

function collecting() {
  const chunks: Buffer[] = [];
  const stream = new LocalResponseStream(async (chunk) => {
    chunks.push(chunk);
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

describe('the awslambda global of the local runtime', () => {
  it('streamifyResponse marks the handler with the runtime’s symbol and returns it', () => {
    const handler = async () => undefined;
    const marked = awslambda.streamifyResponse(handler);
    expect(marked).toBe(handler);
    expect((handler as unknown as Record<symbol, unknown>)[HANDLER_STREAMING]).toBe('response');
    expect(Symbol.for('aws.lambda.runtime.handler.streaming')).toBe(HANDLER_STREAMING);
    expect(isStreamingHandler(marked)).toBe(true);
    expect(isStreamingHandler(async () => undefined)).toBe(false);
  });

  it('keeps what the AWS SDK already put on the global', () => {
    const global = globalThis as unknown as { awslambda: Record<string, unknown> };
    const before = global.awslambda;
    installAwsLambdaGlobal();
    expect(global.awslambda).toBe(before);
    expect(typeof global.awslambda.streamifyResponse).toBe('function');
  });

  it('HttpResponseStream.from sends the JSON prelude and 8 NUL bytes before the first write', async () => {
    const { stream, bytes } = collecting();
    const http = awslambda.HttpResponseStream.from(stream, {
      statusCode: 201,
      headers: { 'content-type': 'text/csv' },
    });
    expect(stream.contentType).toBe(PRELUDE_CONTENT_TYPE);
    await pipeline(Readable.from(['a,b\r\n', 'c,d\r\n']), http);
    const prelude = '{"statusCode":201,"headers":{"content-type":"text/csv"}}';
    expect(bytes()).toEqual(
      Buffer.concat([Buffer.from(prelude), Buffer.alloc(8), Buffer.from('a,b\r\nc,d\r\n')]),
    );
  });

  it('like the runtime, refuses a content type after the first write and sends no prelude for end(chunk) alone', async () => {
    const late = collecting();
    late.stream.write('x');
    expect(() => late.stream.setContentType('text/plain')).toThrow(/too late/);

    const endOnly = collecting();
    awslambda.HttpResponseStream.from(endOnly.stream, { statusCode: 200 });
    await new Promise<void>((resolve) => endOnly.stream.end('body', resolve));
    expect(endOnly.bytes().toString()).toBe('body');
  });

  it('write returns false while the sink has not taken the bytes (backpressure)', async () => {
    let release: () => void = () => undefined;
    const stream = new LocalResponseStream(
      () => new Promise<void>((resolve) => (release = resolve)),
      4,
    );
    expect(stream.write('12345678')).toBe(false);
    const drained = new Promise((resolve) => stream.once('drain', resolve));
    release();
    await drained;
  });
});

describe('PreludeReader', () => {
  const prelude = { statusCode: 200, headers: { 'x-a': '1' } };
  const wire = Buffer.concat([
    Buffer.from(JSON.stringify(prelude)),
    Buffer.alloc(8),
    Buffer.from([0, 0, 65]),
  ]);

  it('finds the prelude however the bytes are split, and keeps NUL bytes of the body', () => {
    for (const size of [1, 3, 8, wire.length]) {
      const reader = new PreludeReader();
      let found: ReturnType<PreludeReader['push']>;
      const rest: Buffer[] = [];
      for (let i = 0; i < wire.length; i += size) {
        const chunk = wire.subarray(i, i + size);
        if (found) rest.push(chunk);
        else {
          found = reader.push(chunk);
          if (found) rest.push(found.rest);
        }
      }
      expect(found?.prelude, `chunks of ${size}`).toEqual(prelude);
      expect(Buffer.concat(rest)).toEqual(Buffer.from([0, 0, 65]));
    }
  });

  it('refuses a delimiter that is not 8 NUL bytes, and a prelude that is not JSON', () => {
    expect(() =>
      new PreludeReader().push(
        Buffer.concat([Buffer.from('{}'), Buffer.from([0, 0, 0, 1, 0, 0, 0, 0])]),
      ),
    ).toThrow(/8 NUL/);
    expect(() =>
      new PreludeReader().push(Buffer.concat([Buffer.from('{oops'), Buffer.alloc(8)])),
    ).toThrow();
  });
});

describe('responseHead', () => {
  it('takes status and headers, drops the length (the relay is chunked), defaults status and type', () => {
    expect(
      responseHead({
        statusCode: 200,
        headers: { 'Content-Type': 'text/csv', 'Content-Length': '10', 'x-a': '1' },
        multiValueHeaders: { 'x-b': ['1', '2'] },
        cookies: ['a=1'],
      }),
    ).toEqual({
      status: 200,
      headers: { 'Content-Type': 'text/csv', 'x-a': '1', 'x-b': ['1', '2'], 'set-cookie': ['a=1'] },
    });
    expect(responseHead({})).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
});
