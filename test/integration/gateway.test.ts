import { describe, expect, it } from 'vitest';
import { api, stack } from '#test/support/api.ts';
import { newForm } from '#test/support/forms.ts';

describe('local gateway and fallback', () => {
  it('answers 404 not_found with the envelope for an unknown path', async () => {
    const response = await api('GET', '/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ ok: false, error: 'not_found' });
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers 405 method_not_allowed with Allow for a known path and another method', async () => {
    const response = await api('DELETE', '/v1/forms');
    expect(response.status).toBe(405);
    expect(response.body).toMatchObject({ ok: false, error: 'method_not_allowed' });
    expect(response.headers.get('allow')).toBe('GET, POST');
  });

  it('gives every response its own request id', async () => {
    const [a, b] = await Promise.all([api('GET', '/v1/forms'), api('GET', '/v1/forms')]);
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('passes query strings and trailing slashes through like API Gateway', async () => {
    const response = await api('GET', '/v1/forms/?x=1&x=2');
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body.forms)).toBe(true);
  });

  it("a body over API Gateway's 10 MB is its own 413, carrying the request id in the envelope and x-amzn-RequestId", async () => {
    const response = await api('POST', '/s/any-key', {
      key: null,
      rawBody: 'a='.padEnd(10 * 1024 * 1024 + 1, 'x'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ ok: false, error: 'payload_too_large' });
    expect(response.body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('x-amzn-requestid')).toBe(response.body.requestId);
  });
});

describe('HEAD on public GET routes', () => {
  /** The same request as GET and as HEAD, over real HTTP. */
  async function both(path: string) {
    const url = `${stack().baseUrl}${path}`;
    const get = await fetch(url);
    const getBody = await get.text();
    const head = await fetch(url, { method: 'HEAD' });
    const headBody = await head.text();
    return { get, getBody, head, headBody };
  }

  it.each([
    ['the hosted page', (key: string) => `/f/${key}`],
    ['the form JSON', (key: string) => `/f/${key}/form.json`],
    ['the embed script', () => '/embed.js'],
    ['the OpenAPI document', () => '/v1/openapi.json'],
    ['the API docs page', () => '/v1/docs'],
  ])('%s answers HEAD with the GET’s status and headers and no body', async (_name, pathOf) => {
    const form = await newForm('pro');
    const { get, getBody, head, headBody } = await both(pathOf(form.key));
    expect(get.status).toBe(200);
    expect(getBody.length).toBeGreaterThan(0);
    expect(head.status).toBe(200);
    expect(headBody).toBe('');
    // The hosted page's CSP carries a fresh nonce per answer.
    const sameBut = (value: string | null) => value?.replace(/'nonce-[^']+'/g, "'nonce-…'");
    for (const name of ['content-type', 'cache-control', 'content-security-policy', 'etag']) {
      expect(sameBut(head.headers.get(name)), name).toBe(sameBut(get.headers.get(name)));
    }
    expect(head.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a HEAD of a form that does not exist is the GET’s 404, without a body', async () => {
    const { get, head, headBody } = await both('/f/no-such-form-key');
    expect(get.status).toBe(404);
    expect(head.status).toBe(404);
    expect(headBody).toBe('');
  });

  it('management routes do not take HEAD: 405 with Allow', async () => {
    const head = await fetch(`${stack().baseUrl}/v1/forms`, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET, POST');
  });

  it('a public GET path lists HEAD in Allow when another method is refused', async () => {
    const response = await api('DELETE', '/embed.js', { key: null });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
