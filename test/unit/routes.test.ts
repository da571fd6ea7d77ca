import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fallbackRoute, matchRoute, type Route, routeFunctions, routes } from '#routes';
import { SETTINGS } from '#settings';

const LAMBDAS = join(import.meta.dirname, '..', '..', 'lambdas');

describe('route table', () => {
  it('names every route uniquely and never lists a method and path twice', () => {
    expect(new Set(routes.map((r) => r.name)).size).toBe(routes.length);
    expect(new Set(routes.map((r) => `${r.method} ${r.path}`)).size).toBe(routes.length);
  });

  it.each([...routes.map((r) => [r.name, r.handler]), [fallbackRoute.name, fallbackRoute.handler]])(
    '%s points at a handler module that exports handler',
    (_name, handler) => {
      const file = join(LAMBDAS, handler);
      expect(existsSync(file), `${handler} is missing`).toBe(true);
      expect(readFileSync(file, 'utf8')).toMatch(/export const handler\b/);
    },
  );

  it('gives the Sheets connect its two Google calls and an answer, under the gateway’s 29 s', () => {
    const connect = routes.find((r) => r.name === 'putIntegration')!;
    // A token, then spreadsheets.get, each cut at the deployed receiver timeout: a second left
    // to answer 503.
    const callMs = SETTINGS.receiverTimeoutMs.default;
    expect(connect.timeoutSeconds).toBeGreaterThanOrEqual((2 * callMs) / 1000 + 1);
    expect(connect.timeoutSeconds).toBeLessThan(29);
  });

  it('every API-key route counts requests against the per-key rate limit', () => {
    for (const route of routes.filter((r) => r.auth === 'apiKey')) {
      expect(route.access, route.name).toContain('rateLimits:count');
    }
  });

  it('matches path parameters and tells 404 from 405', () => {
    const id = '0b6f6f1e-5c1a-4a53-9d1b-4a7c7e0c2f10';
    const found = matchRoute('get', `/v1/forms/${id}`);
    expect(found.match?.route.name).toBe('getForm');
    expect(found.match?.pathParameters).toEqual({ id });
    expect(matchRoute('DELETE', '/v1/forms')).toEqual({
      match: undefined,
      allowed: ['GET', 'POST'],
      isPublic: false,
    });
    expect(matchRoute('GET', '/v2/forms')).toEqual({
      match: undefined,
      allowed: [],
      isPublic: false,
    });
    // The public endpoint answers other methods itself (CORS preflight, 405 page).
    expect(matchRoute('GET', '/s/abc')).toEqual({
      match: undefined,
      allowed: ['POST'],
      isPublic: true,
    });
    expect(matchRoute('GET', `/v1/forms/${id}/extra`).allowed).toEqual([]);
  });

  it('public GET routes take HEAD as their GET and list it as allowed; management routes do not', () => {
    expect(matchRoute('HEAD', '/f/abc').match?.route.name).toBe('getFormPage');
    expect(matchRoute('head', '/embed.js').match?.route.name).toBe('getEmbedScript');
    expect(matchRoute('HEAD', '/v1/openapi.json').match?.route.name).toBe('getOpenApiDocument');
    expect(matchRoute('HEAD', '/v1/docs').match?.route.name).toBe('getApiDocsPage');
    expect(matchRoute('POST', '/f/abc').allowed).toEqual(['GET', 'HEAD']);
    expect(matchRoute('HEAD', '/v1/forms')).toEqual({
      match: undefined,
      allowed: ['GET', 'POST'],
      isPublic: false,
    });
    expect(matchRoute('HEAD', '/s/abc').match).toBeUndefined();
  });

  it('a literal segment beats a parameter in the same place, as in API Gateway', () => {
    const id = '0b6f6f1e-5c1a-4a53-9d1b-4a7c7e0c2f10';
    expect(matchRoute('GET', `/v1/forms/${id}/submissions/search`).match?.route.name).toBe(
      'searchSubmissions',
    );
    expect(matchRoute('GET', `/v1/forms/${id}/submissions/${id}`).match?.route.name).toBe(
      'getSubmission',
    );
    // Only the most specific resource's methods: DELETE on the search path is 405 with GET.
    expect(matchRoute('DELETE', `/v1/forms/${id}/submissions/search`)).toMatchObject({
      match: undefined,
      allowed: ['GET'],
    });
  });

  it('keeps a malformed %-escape in a path parameter as sent instead of throwing', () => {
    expect(matchRoute('GET', '/v1/forms/%E0%A4%A').match?.pathParameters).toEqual({
      id: '%E0%A4%A',
    });
  });
});

describe('functions of the route table (docs/architecture.md#route-groups)', () => {
  const base = routes.find((route) => route.name === 'getForm')!;
  const grouped = (name: string, access: Route['access']): Route => ({
    ...base,
    name,
    path: `/v1/probe/${name}`,
    group: 'probeGroup',
    access,
  });

  it('a group holds routes of the same grants only, so none gets what another route needs', () => {
    expect(() =>
      routeFunctions([
        grouped('readsOnly', ['table:read']),
        grouped('alsoDeletes', ['table:read', 'uploads:delete']),
      ]),
    ).toThrow(
      /alsoDeletes holds other grants than group probeGroup .*make it a function of its own/,
    );
    const [fn] = routeFunctions([
      grouped('one', ['table:read', 'table:write']),
      grouped('two', ['table:write', 'table:read', 'table:read']),
    ]);
    expect(fn!.access).toEqual(['table:read', 'table:write']);
  });

  it('a group lives in one area: its function, methods and permissions are one stack’s', () => {
    expect(() =>
      routeFunctions([grouped('here', []), { ...grouped('there', []), area: 'accounts' }]),
    ).toThrow(/there disagrees with group probeGroup on area/);
  });

  it('every function of the deployed table holds exactly the grants of each of its routes', () => {
    for (const fn of routeFunctions()) {
      for (const route of fn.routes) {
        expect([...new Set(route.access)].sort(), `${route.name} in ${fn.name}`).toEqual(
          [...fn.access].sort(),
        );
      }
    }
  });
});
