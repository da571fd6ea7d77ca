import middy, { type Request } from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { ServiceError } from '#domain/errors.ts';
import type { HttpResponse } from '#http/respond.ts';
import { errorEnvelope } from './error-envelope.ts';
import { jsonBody, MAX_MANAGEMENT_BODY_BYTES } from './json-body.ts';

type BodyRequest = Request<APIGatewayProxyEvent, HttpResponse, Error>;

function requestWith(event: Partial<APIGatewayProxyEvent>): BodyRequest {
  return {
    event: { headers: {}, body: null, isBase64Encoded: false, ...event } as APIGatewayProxyEvent,
    context: {} as Context,
    response: null,
    error: null,
    internal: {},
  };
}

/** Runs the middleware on a hand-made request and returns what it left for the handler. */
function parsedBody(event: Partial<APIGatewayProxyEvent>): unknown {
  const request = requestWith(event);
  jsonBody().before!(request);
  return (request.context as unknown as { body: unknown }).body;
}

/** The ServiceError the middleware refuses the body with; fails the test if it accepts it. */
function refusalOf(event: Partial<APIGatewayProxyEvent>): ServiceError {
  let body: unknown;
  try {
    body = parsedBody(event);
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error(`the body was accepted as ${JSON.stringify(body)?.slice(0, 80)}`);
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** A JSON string literal whose UTF-8 encoding is exactly `bytes` long. */
function jsonOfBytes(bytes: number): string {
  return `"${'a'.repeat(bytes - 2)}"`;
}

describe('jsonBody middleware', () => {
  it.each([
    ['no body', null],
    ['an empty body', ''],
  ])('gives the handler an undefined body for %s, whatever the content type', (_what, body) => {
    expect(parsedBody({ body, headers: { 'content-type': 'text/plain' } })).toBeUndefined();
    expect(parsedBody({ body, headers: {} })).toBeUndefined();
  });

  it('parses a JSON body into context.body for the handler', () => {
    const body = { name: 'Waitlist', blockedIps: ['203.0.113.0/24'], emoji: '📮' };
    expect(
      parsedBody({
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      }),
    ).toEqual(body);
  });

  it('hands any JSON value on as sent; the route schema, not the middleware, judges its shape', () => {
    expect(parsedBody({ body: 'null', headers: JSON_TYPE })).toBeNull();
    expect(parsedBody({ body: '[1,2]', headers: JSON_TYPE })).toEqual([1, 2]);
    expect(parsedBody({ body: '"text"', headers: JSON_TYPE })).toBe('text');
  });

  it.each([
    'application/json',
    'Application/JSON',
    'application/json;charset=UTF-8',
    'application/json ; charset=utf-8',
    'application/vnd.api+json',
    'application/merge-patch+json',
  ])('accepts the JSON media type %s', (type) => {
    expect(parsedBody({ body: '{"a":1}', headers: { 'content-type': type } })).toEqual({ a: 1 });
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=----x',
    'text/json',
    'application/jsonp',
    'application/json-seq',
    'application/xml',
  ])(
    'refuses a body sent as %s with 415 unsupported_media_type, even if it parses as JSON',
    (type) => {
      expect(refusalOf({ body: '{"a":1}', headers: { 'content-type': type } })).toMatchObject({
        status: 415,
        code: 'unsupported_media_type',
      });
    },
  );

  it('finds the content type whatever the case of the header name', () => {
    expect(refusalOf({ body: '{"a":1}', headers: { 'Content-Type': 'text/plain' } }).status).toBe(
      415,
    );
    expect(
      parsedBody({ body: '{"a":1}', headers: { 'CONTENT-TYPE': 'application/json' } }),
    ).toEqual({ a: 1 });
  });

  it('reads a body sent without a content type as JSON', () => {
    expect(parsedBody({ body: '{"a":1}', headers: {} })).toEqual({ a: 1 });
    expect(refusalOf({ body: 'a=1', headers: {} })).toMatchObject({
      status: 400,
      code: 'invalid_request',
    });
  });

  it.each([
    ['an unclosed object', '{"name":"Contact"'],
    ['a bare word', '{oops'],
    ['single quotes', "{'name':'Contact'}"],
    ['a trailing comma', '{"name":"Contact",}'],
    ['white space only', '  \n '],
    ['two documents', '{} {}'],
  ])('refuses malformed JSON (%s) with 400 invalid_request and no issues', (_what, body) => {
    const refusal = refusalOf({ body, headers: JSON_TYPE });
    expect(refusal).toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: 'The request body is not valid JSON',
    });
    expect(refusal.issues).toBeUndefined();
  });

  it('refuses bytes that are not UTF-8 instead of parsing replacement characters', () => {
    const notUtf8 = Buffer.from([0x22, 0xff, 0xfe, 0x22]).toString('base64');
    expect(refusalOf({ body: notUtf8, isBase64Encoded: true, headers: JSON_TYPE })).toMatchObject({
      status: 400,
      code: 'invalid_request',
    });
  });

  it('decodes a base64-encoded body (as API Gateway passes it) before parsing it as UTF-8', () => {
    const body = { name: 'Anmeldung für Müller 📮' };
    expect(
      parsedBody({
        body: Buffer.from(JSON.stringify(body)).toString('base64'),
        isBase64Encoded: true,
        headers: JSON_TYPE,
      }),
    ).toEqual(body);
  });

  it('parses a body that starts with a UTF-8 byte order mark', () => {
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]);
    expect(
      parsedBody({ body: withBom.toString('base64'), isBase64Encoded: true, headers: JSON_TYPE }),
    ).toEqual({ a: 1 });
  });

  it('takes a body of exactly 256 KB and refuses one byte more with 413 payload_too_large', () => {
    expect(MAX_MANAGEMENT_BODY_BYTES).toBe(256 * 1024);
    const atLimit = jsonOfBytes(MAX_MANAGEMENT_BODY_BYTES);
    expect(parsedBody({ body: atLimit, headers: JSON_TYPE })).toHaveLength(
      MAX_MANAGEMENT_BODY_BYTES - 2,
    );
    expect(
      refusalOf({ body: jsonOfBytes(MAX_MANAGEMENT_BODY_BYTES + 1), headers: JSON_TYPE }),
    ).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('counts the limit in UTF-8 bytes, not in characters', () => {
    // 140,000 two-byte characters: fewer characters than the limit, more bytes.
    const body = `"${'é'.repeat(140_000)}"`;
    expect(body.length).toBeLessThan(MAX_MANAGEMENT_BODY_BYTES);
    expect(refusalOf({ body, headers: JSON_TYPE }).status).toBe(413);
  });

  it('counts a base64 body by its decoded size, not its encoded length', () => {
    const atLimit = Buffer.from(jsonOfBytes(MAX_MANAGEMENT_BODY_BYTES)).toString('base64');
    expect(atLimit.length).toBeGreaterThan(MAX_MANAGEMENT_BODY_BYTES);
    expect(parsedBody({ body: atLimit, isBase64Encoded: true, headers: JSON_TYPE })).toHaveLength(
      MAX_MANAGEMENT_BODY_BYTES - 2,
    );
    const overLimit = Buffer.from(jsonOfBytes(MAX_MANAGEMENT_BODY_BYTES + 1)).toString('base64');
    expect(refusalOf({ body: overLimit, isBase64Encoded: true, headers: JSON_TYPE }).status).toBe(
      413,
    );
  });

  it('refuses an oversized body with 413 before judging its type or parsing it', () => {
    const huge = 'x'.repeat(MAX_MANAGEMENT_BODY_BYTES + 1);
    expect(refusalOf({ body: huge, headers: { 'content-type': 'text/plain' } }).code).toBe(
      'payload_too_large',
    );
    expect(refusalOf({ body: huge, headers: JSON_TYPE }).code).toBe('payload_too_large');
  });

  it('in a middy chain with the error envelope, a refused body never reaches the handler', async () => {
    const handler = vi.fn(async () => ({ statusCode: 200, body: '' }));
    const chain = middy<APIGatewayProxyEvent, HttpResponse>()
      .use(errorEnvelope())
      .use(jsonBody())
      .handler(handler);
    const response = await chain(requestWith({ body: '{oops', headers: JSON_TYPE }).event, {
      getRemainingTimeInMillis: () => 10_000,
    } as Context);
    expect(handler).not.toHaveBeenCalled();
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      ok: false,
      error: 'invalid_request',
      message: 'The request body is not valid JSON',
    });
  });
});
