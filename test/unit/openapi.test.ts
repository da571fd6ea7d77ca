import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiJson } from '#lib/openapi/document.ts';
import { documentedRoute, fallbackRoute, type Route, routes as table } from '#routes';

/** The dashboard's routes are pages of the app, not of the API. */
const routes = table.filter(documentedRoute);

const committed = readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');
type Operation = {
  summary?: string;
  security?: unknown[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, unknown>;
};
const document = JSON.parse(committed) as {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};
const operation = (route: Pick<Route, 'method' | 'path'>) =>
  document.paths[route.path]?.[route.method.toLowerCase()];

describe('openapi.json', () => {
  it('is what `npm run openapi` writes now (regenerate it when this fails)', async () => {
    expect(committed).toBe(await openApiJson());
  });

  it('is OpenAPI 3.1', () => {
    expect(document.openapi).toBe('3.1.0');
  });

  it('holds every route of the table, with its summary, path parameters and auth', () => {
    const missing = routes.filter((route) => !operation(route)).map((r) => `${r.method} ${r.path}`);
    expect(missing, 'routes missing from openapi.json').toEqual([]);
    for (const route of routes) {
      const op = operation(route)!;
      expect(op.summary).toBe(route.summary);
      const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(op.parameters?.filter((p) => p.in === 'path').map((p) => p.name) ?? []).toEqual(names);
      expect(op.security).toEqual(route.auth === 'apiKey' ? [{ apiKey: [] }, { session: [] }] : []);
    }
  });

  it('holds nothing the table lacks, and not the fallback', () => {
    const listed = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(listed.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    expect(JSON.stringify(document)).not.toContain(fallbackRoute.handler);
  });

  it('takes request bodies and query strings from the routes’ contracts', () => {
    const create = operation({ method: 'POST', path: '/v1/forms' })!;
    expect(create.requestBody?.content['application/json']).toMatchObject({
      schema: { type: 'object', required: ['name'], additionalProperties: false },
    });
    const list = operation({ method: 'GET', path: '/v1/forms/{id}/submissions' })!;
    expect(list.parameters?.filter((p) => p.in === 'query').map((p) => p.name)).toEqual([
      'filter',
      'reason',
      'page',
      'pageSize',
      'around',
    ]);
  });

  it('describes the submit endpoint: three content types, its statuses, JSON and HTML answers', () => {
    const submit = operation({ method: 'POST', path: '/s/{key}' })!;
    expect(Object.keys(submit.requestBody!.content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    expect(Object.keys(submit.responses).sort()).toEqual([
      '200',
      '303',
      '400',
      '402',
      '403',
      '404',
      '413',
      '415',
      '422',
      '423',
      '429',
      '500',
      '503',
    ]);
  });

  it('has the error envelope, bearer auth and the submission.created webhook', () => {
    expect(document.components.schemas.ErrorEnvelope).toMatchObject({
      required: ['ok', 'error', 'message'],
    });
    expect(document.components.securitySchemes.apiKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    const webhook = document.webhooks['submission.created']!.post;
    expect(webhook.parameters?.map((p) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'user-agent',
    ]);
  });
});
