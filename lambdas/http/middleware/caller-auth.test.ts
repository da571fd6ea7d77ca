import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request } from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { issueApiKey } from '#domain/api-keys.ts';
import { ServiceError } from '#domain/errors.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import type { HttpResponse } from '#http/respond.ts';
import { callerAuth } from './caller-auth.ts';

/*
 * The middleware reads the key store (DynamoDB) directly. These tests do not
 * mock the AWS client: they point it at a local HTTP endpoint that records
 * every request and answers 503, so a test can prove the store was never
 * reached (refusals that need no lookup) or was reached with only the key id.
 * What needs a real record (unknown, wrong secret, revoked, a good key, 429)
 * is covered over HTTP by test/integration/auth.test.ts and rate-limit.test.ts.
 */
interface StoreCall {
  target: string | undefined;
  body: string;
}

let store: Server;
let storeCalls: StoreCall[] = [];

beforeAll(async () => {
  store = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      storeCalls.push({
        target: req.headers['x-amz-target'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(503, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ __type: 'ServiceUnavailable', message: 'unit test: no store' }));
    });
  });
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  const { port } = store.address() as AddressInfo;
  vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', `http://127.0.0.1:${port}`);
  vi.stubEnv('AWS_REGION', 'eu-west-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'unit-test');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'unit-test');
  vi.stubEnv('AWS_MAX_ATTEMPTS', '1');
  vi.stubEnv('TABLE_NAME', 'unit-test-table');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => store.close(resolve));
});

beforeEach(() => {
  storeCalls = [];
});

function eventWith(headers: Record<string, string> | null, body: string | null = null) {
  return {
    httpMethod: 'POST',
    resource: '/v1/forms',
    path: '/v1/forms',
    headers,
    body,
    isBase64Encoded: false,
    requestContext: { requestId: 'auth-unit-request' },
  } as unknown as APIGatewayProxyEvent;
}

function requestWith(
  headers: Record<string, string> | null,
): Request<APIGatewayProxyEvent, HttpResponse> {
  return {
    event: eventWith(headers),
    context: {} as Context,
    response: null,
    error: null,
    internal: {},
  };
}

/** What `before` throws for these headers, and the caller it left on the context. */
async function authenticate(headers: Record<string, string> | null) {
  const request = requestWith(headers);
  let thrown: unknown;
  try {
    await callerAuth().before!(request);
  } catch (error) {
    thrown = error;
  }
  return { thrown, caller: (request.context as unknown as { caller?: unknown }).caller };
}

const WELL_FORMED = issueApiKey();

describe('apiKeyAuth middleware', () => {
  it.each([
    ['headers absent altogether', null],
    ['no Authorization header', { 'content-type': 'application/json' }],
    ['an empty Authorization header', { authorization: '' }],
  ])('answers 401 unauthorized without a lookup for %s', async (_what, headers) => {
    const { thrown, caller } = await authenticate(headers);
    expect(thrown).toBeInstanceOf(ServiceError);
    expect(thrown).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(caller).toBeUndefined();
    expect(storeCalls).toEqual([]);
  });

  it.each([
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['the key without a scheme', WELL_FORMED.apiKey],
    ['Bearer and nothing else', 'Bearer'],
    ['Bearer and white space', 'Bearer   '],
    ['a token that is not an API key', 'Bearer not-a-key'],
    ['a key with a short secret', 'Bearer fsk_0123456789abcdef_tooShort'],
    ['a key id in upper case', `Bearer fsk_0123456789ABCDEF_${'A'.repeat(43)}`],
    ['a key id of the wrong length', `Bearer fsk_0123456789abcde_${'A'.repeat(43)}`],
    ['another prefix', `Bearer sk_0123456789abcdef_${'A'.repeat(43)}`],
    ['two tokens', `Bearer ${WELL_FORMED.apiKey} ${WELL_FORMED.apiKey}`],
    ['a key with a trailing character', `Bearer ${WELL_FORMED.apiKey}x`],
  ])(
    'answers 401 unauthorized without a lookup for a malformed value: %s',
    async (_what, value) => {
      const { thrown, caller } = await authenticate({ authorization: value });
      expect(thrown).toMatchObject({
        status: 401,
        code: 'unauthorized',
        message: 'The Authorization header is not a valid API key',
      });
      expect(caller).toBeUndefined();
      expect(storeCalls).toEqual([]);
    },
  );

  it('looks a well-formed key up by its key id alone: the secret never leaves the function', async () => {
    await authenticate({ authorization: `Bearer ${WELL_FORMED.apiKey}` });
    expect(storeCalls).toHaveLength(1);
    const [call] = storeCalls;
    expect(call?.target).toBe('DynamoDB_20120810.GetItem');
    expect(call?.body).toContain(`APIKEY#${WELL_FORMED.keyId}`);
    expect(call?.body).not.toContain(WELL_FORMED.apiKey.slice(`fsk_${WELL_FORMED.keyId}_`.length));
    expect(call?.body).not.toContain(WELL_FORMED.hash);
  });

  it.each([
    ['Bearer in lower case', { authorization: `bearer ${WELL_FORMED.apiKey}` }],
    ['the header name in any case', { AUTHORIZATION: `Bearer ${WELL_FORMED.apiKey}` }],
    ['several spaces and a trailing space', { Authorization: `Bearer   ${WELL_FORMED.apiKey} ` }],
  ])('reads a well-formed key with %s', async (_what, headers) => {
    await authenticate(headers);
    expect(storeCalls.map((call) => call.target)).toEqual(['DynamoDB_20120810.GetItem']);
  });

  it('lets a key store failure through as an error, never as a 401 that would blame the key', async () => {
    const { thrown, caller } = await authenticate({
      authorization: `Bearer ${WELL_FORMED.apiKey}`,
    });
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).not.toBeInstanceOf(ServiceError);
    expect(caller).toBeUndefined();
  });

  describe('in the management chain', () => {
    const handler = vi.fn(async () => ({ statusCode: 200, body: '{}' }));
    const route = managementRoute(
      defineContract({
        tag: 'Test',
        answers: [{ status: 200, description: 'OK.', body: 'Ok' }],
        errors: [],
      }),
      handler,
    );
    const context = { getRemainingTimeInMillis: () => 10_000 } as Context;
    /** Everything the chain logs, both streams: the log is part of what these tests check. */
    let logged: string[];

    beforeEach(() => {
      handler.mockClear();
      logged = [];
      const capture = (chunk: string | Uint8Array) => {
        logged.push(String(chunk));
        return true;
      };
      const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
      const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
      return () => {
        out.mockRestore();
        err.mockRestore();
      };
    });

    it.each([
      ['malformed JSON', { 'content-type': 'application/json' }, '{oops'],
      ['a body that is not JSON', { 'content-type': 'text/plain' }, 'name=Contact'],
      ['a body over 256 KB', { 'content-type': 'application/json' }, 'x'.repeat(300_000)],
    ])(
      'checks the key before the body: no key and %s is 401, and the handler never runs',
      async (_what, headers, body) => {
        const response = await route(eventWith(headers, body), context);
        expect(response.statusCode).toBe(401);
        expect(JSON.parse(response.body)).toMatchObject({ ok: false, error: 'unauthorized' });
        expect(response.headers?.['x-request-id']).toBe('auth-unit-request');
        expect(handler).not.toHaveBeenCalled();
        expect(storeCalls).toEqual([]);
      },
    );

    it('answers a key store failure with the bare 500 envelope and never runs the handler', async () => {
      const response = await route(
        eventWith({ authorization: `Bearer ${WELL_FORMED.apiKey}` }),
        context,
      );
      expect(response.statusCode).toBe(500);
      expect(JSON.parse(response.body)).toEqual({
        ok: false,
        error: 'internal_error',
        message: 'Something went wrong on our side',
      });
      expect(handler).not.toHaveBeenCalled();
    });

    it.each([
      ['a malformed key (refused without a lookup)', `fsk_0123456789abcdef_${'S'.repeat(42)}`, 401],
      ['a well-formed key (store unreachable)', `fsk_0123456789abcdef_${'S'.repeat(43)}`, 500],
    ])('never writes the presented secret to the log for %s', async (_what, key, status) => {
      await route(eventWith({ authorization: `Bearer ${key}` }), context);
      const requestLine = logged.find((line) => line.includes('"message":"request"'));
      expect(requestLine, 'one request line').toBeDefined();
      expect(JSON.parse(requestLine!)).toMatchObject({ status, requestId: 'auth-unit-request' });
      expect(logged.join('')).not.toContain('SSSSSSSS');
    });
  });
});
