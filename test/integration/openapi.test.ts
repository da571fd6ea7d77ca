import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentedRoute, routes } from '#routes';
import { api } from '#test/support/api.ts';

const committed = readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');

describe('GET /v1/openapi.json', () => {
  it('serves the committed document, public and cacheable', async () => {
    const response = await api('GET', '/v1/openapi.json', { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(response.text).toBe(committed);
    const paths = (response.body as { paths: Record<string, Record<string, unknown>> }).paths;
    for (const route of routes.filter(documentedRoute))
      expect(paths[route.path]?.[route.method.toLowerCase()]).toBeTruthy();
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await api('GET', '/v1/openapi.json', { key: null });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await api('GET', '/v1/openapi.json', {
      key: null,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });
});
