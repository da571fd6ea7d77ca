import middy, { type Request } from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { invalidRequest, notFound, ServiceError } from '#domain/errors.ts';
import { withRequestId } from '#http/request-id.ts';
import type { HttpResponse } from '#http/respond.ts';
import { errorEnvelope } from './error-envelope.ts';

const REQUEST_ID = 'c0ffee00-1234-4f00-8000-000000000001';

function eventFor(): APIGatewayProxyEvent {
  return {
    httpMethod: 'PATCH',
    resource: '/v1/forms/{id}',
    path: '/v1/forms/f-1',
    headers: {},
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: REQUEST_ID },
  } as unknown as APIGatewayProxyEvent;
}

const context = { getRemainingTimeInMillis: () => 10_000 } as Context;

/** A management-style chain (request id outside, envelope inside) whose handler throws `error`. */
function answerTo(error: unknown): Promise<HttpResponse> {
  const chain = middy<APIGatewayProxyEvent, HttpResponse>()
    .use(errorEnvelope())
    .handler(async () => {
      throw error;
    });
  return withRequestId(chain)(eventFor(), context);
}

function bodyOf(response: HttpResponse): Record<string, unknown> {
  expect(response.headers?.['content-type']).toBe('application/json; charset=utf-8');
  return JSON.parse(response.body) as Record<string, unknown>;
}

/** Log lines written while a test runs, by stream, parsed. */
let logged: { out: Record<string, unknown>[]; err: Record<string, unknown>[] };
let restoreWrites: () => void;

beforeEach(() => {
  logged = { out: [], err: [] };
  const out = process.stdout.write;
  const err = process.stderr.write;
  const capture = (into: Record<string, unknown>[]) =>
    ((chunk: string | Uint8Array) => {
      for (const line of String(chunk).split('\n')) {
        if (line.startsWith('{')) into.push(JSON.parse(line));
      }
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capture(logged.out);
  process.stderr.write = capture(logged.err);
  restoreWrites = () => {
    process.stdout.write = out;
    process.stderr.write = err;
  };
});

afterEach(() => restoreWrites());

describe('errorEnvelope middleware', () => {
  it('turns a ServiceError on a hand-made request into its status and the envelope', () => {
    const request: Request<APIGatewayProxyEvent, HttpResponse> = {
      event: eventFor(),
      context,
      response: null,
      error: notFound('Form'),
      internal: {},
    };
    errorEnvelope().onError!(request);
    expect(request.response?.statusCode).toBe(404);
    // Exactly these keys: no `issues: undefined`, no stack, no cause.
    expect(bodyOf(request.response!)).toStrictEqual({
      ok: false,
      error: 'not_found',
      message: 'Form not found',
    });
  });

  it('keeps the issues of a ServiceError in the envelope', async () => {
    const issues = [{ path: 'fields.0.label', code: 'too_big', message: 'At most 200 characters' }];
    const response = await answerTo(invalidRequest('The request body is not valid', issues));
    expect(response.statusCode).toBe(400);
    expect(bodyOf(response)).toStrictEqual({
      ok: false,
      error: 'invalid_request',
      message: 'The request body is not valid',
      issues,
    });
  });

  it('keeps the headers a ServiceError carries, such as Retry-After on 429', async () => {
    const response = await answerTo(
      new ServiceError('rate_limited', 'Slow down', { headers: { 'retry-after': '17' } }),
    );
    expect(response.statusCode).toBe(429);
    expect(response.headers?.['retry-after']).toBe('17');
    expect(bodyOf(response)).toMatchObject({ ok: false, error: 'rate_limited' });
  });

  it('does not log client errors (4xx) as errors', async () => {
    await answerTo(notFound('Form'));
    await answerTo(new ServiceError('conflict', 'The form kept changing'));
    expect(logged.err).toEqual([]);
  });

  it('logs a 5xx ServiceError with its stack and the request id, and still answers its own code', async () => {
    const response = await answerTo(new ServiceError('busy', 'Try again later'));
    expect(response.statusCode).toBe(503);
    expect(bodyOf(response)).toMatchObject({ error: 'busy', message: 'Try again later' });
    expect(logged.err).toHaveLength(1);
    expect(logged.err[0]).toMatchObject({
      level: 'error',
      requestId: REQUEST_ID,
      error: { stack: expect.stringContaining('ServiceError: Try again later') },
    });
  });

  it('turns a zod failure into 400 invalid_request with its issues as path, code and message', async () => {
    const schema = z.strictObject({ name: z.string() });
    const failure = schema.safeParse({ extra: 1 }).error;
    const response = await answerTo(failure);
    expect(response.statusCode).toBe(400);
    const body = bodyOf(response);
    expect(body).toMatchObject({ ok: false, error: 'invalid_request' });
    expect(body.issues).toEqual([
      expect.objectContaining({ path: 'name', code: 'invalid_type' }),
      expect.objectContaining({ path: 'extra', code: 'unrecognized_keys' }),
    ]);
    for (const issue of body.issues as Record<string, unknown>[]) {
      expect(Object.keys(issue).sort()).toEqual(['code', 'message', 'path']);
    }
  });

  it('answers an unknown error with a bare 500 internal_error that tells nothing of the cause', async () => {
    const secret = 'arn:aws:dynamodb:eu-west-1:123456789012:table/forms password=hunter2';
    const response = await answerTo(new Error(`query failed: ${secret}`, { cause: secret }));
    expect(response.statusCode).toBe(500);
    expect(bodyOf(response)).toStrictEqual({
      ok: false,
      error: 'internal_error',
      message: 'Something went wrong on our side',
    });
    expect(response.body).not.toContain('hunter2');
    expect(Object.keys(response.headers ?? {}).sort()).toEqual([
      'cache-control',
      'content-type',
      'x-content-type-options',
      'x-request-id',
    ]);
  });

  it('writes the stack of an unknown error to the log, with the request id', async () => {
    await answerTo(new TypeError("Cannot read properties of undefined (reading 'teamId')"));
    expect(logged.err).toHaveLength(1);
    expect(logged.err[0]).toMatchObject({
      level: 'error',
      message: 'unexpected error',
      requestId: REQUEST_ID,
      error: {
        name: 'TypeError',
        message: expect.stringContaining('teamId'),
        stack: expect.stringMatching(/error-envelope\.test\.ts/),
      },
    });
  });

  it.each([
    ['a thrown string', 'boom'],
    ['a thrown plain object that looks like a ServiceError', { status: 404, code: 'not_found' }],
    [
      'an Error carrying a status code from another library',
      Object.assign(new Error('Bad Request'), { statusCode: 400, status: 400, expose: true }),
    ],
    ['undefined', undefined],
  ])('answers %s with 500 internal_error, not with anything it claims', async (_what, thrown) => {
    const response = await answerTo(thrown);
    expect(response.statusCode).toBe(500);
    expect(bodyOf(response)).toStrictEqual({
      ok: false,
      error: 'internal_error',
      message: 'Something went wrong on our side',
    });
  });

  it('answers a handler that runs out of time with 503 timeout and Retry-After, not a Lambda 502', async () => {
    const chain = middy<APIGatewayProxyEvent, HttpResponse>()
      .use(errorEnvelope())
      .handler(() => new Promise<HttpResponse>(() => {}));
    const response = await withRequestId(chain)(eventFor(), {
      getRemainingTimeInMillis: () => 25,
    } as Context);
    expect(response.statusCode).toBe(503);
    expect(response.headers?.['retry-after']).toBe('1');
    expect(bodyOf(response)).toStrictEqual({
      ok: false,
      error: 'timeout',
      message: 'The request took too long; try again',
    });
    expect(logged.err[0]).toMatchObject({ message: 'request timed out', requestId: REQUEST_ID });
  });

  it.each([
    ['a ServiceError', notFound('Form'), 404],
    ['a zod failure', z.string().safeParse(1).error, 400],
    ['an unknown error', new Error('bug'), 500],
  ])(
    'puts x-request-id, cache-control: no-store and nosniff on the answer to %s',
    async (_what, error, status) => {
      const response = await answerTo(error);
      expect(response.statusCode).toBe(status);
      expect(response.headers).toMatchObject({
        'x-request-id': REQUEST_ID,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
    },
  );

  it('writes one request line with the same request id, the route template and the status', async () => {
    await answerTo(notFound('Form'));
    const lines = logged.out.filter((line) => line.message === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      requestId: REQUEST_ID,
      method: 'PATCH',
      resource: '/v1/forms/{id}',
      status: 404,
    });
    expect(typeof lines[0]?.ms).toBe('number');
    expect(JSON.stringify(lines[0])).not.toContain('/v1/forms/f-1');
  });
});
