import { describe, expect, it } from 'vitest';
import { api } from '../support/api.ts';

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
