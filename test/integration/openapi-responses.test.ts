import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ApiError, createClient } from '#client/client.ts';
import { confirmToken } from '#domain/confirmation.ts';
import { documentedRoute, matchRoute, routes } from '#routes';
import {
  authPost,
  cookieOf,
  requestSignIn,
  signInEmailsTo,
  signInEmailTo,
  teamWithOwner,
  verify,
} from '#test/support/accounts.ts';
import { type ApiResponse, api, stack } from '#test/support/api.ts';

/**
 * Real answers of every route, validated against openapi.json:
 * the status must be documented for the route, and a JSON body must match
 * the documented schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses).
 */
type Json = Record<string, unknown>;
const document = JSON.parse(
  readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'),
) as {
  paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
  components: Json;
};

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const compiled = new Map<string, ValidateFunction>();
const exercised = new Set<string>();

function resolveResponse(response: Json): Json {
  const ref = response.$ref as string | undefined;
  if (!ref) return response;
  const name = ref.replace('#/components/responses/', '');
  return (document.components.responses as Record<string, Json>)[name]!;
}

/**
 * Checks one real answer against the document: its status is listed, its
 * body fits, and (given its headers) it carries CORS exactly when the
 * document lists it for that answer, which it does from the contract's `cors`.
 */
function expectDocumented(
  method: string,
  path: string,
  status: number,
  contentType: string,
  body: unknown,
  text: string,
  headers?: Headers,
): void {
  const { match } = matchRoute(method, path.split('?')[0]!);
  expect(match, `${method} ${path} matches a route`).toBeDefined();
  const route = match!.route;
  exercised.add(route.name);
  const operation = document.paths[route.path]?.[method.toLowerCase()];
  expect(operation, `${route.name} is in openapi.json`).toBeDefined();
  const documented = operation!.responses[String(status)];
  expect(
    documented,
    `${route.name} answered ${status}, which openapi.json does not list: ${text.slice(0, 300)}`,
  ).toBeDefined();
  const content = resolveResponse(documented!).content as Record<string, { schema: Json }>;
  if (headers) {
    const listed = (resolveResponse(documented!).headers ?? {}) as Json;
    expect(
      headers.get('access-control-allow-origin') !== null,
      `${route.name} ${status}: CORS as its contract declares`,
    ).toBe('access-control-allow-origin' in listed);
  }
  // No content: whatever type the gateway names (API Gateway says application/json), no body.
  if (status === 204) {
    expect(text, `${route.name} 204`).toBe('');
    expect(content, `${route.name} 204 documents no content`).toBeUndefined();
    return;
  }
  if (contentType.startsWith('application/json')) {
    const key = `${route.name} ${status}`;
    let validate = compiled.get(key);
    if (!validate) {
      const schema = content['application/json']!.schema;
      validate = ajv.compile({ ...schema, components: document.components });
      compiled.set(key, validate);
    }
    const valid = validate(body);
    expect(valid, `${key}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  } else if (status !== 304) {
    expect(Object.keys(content ?? {}), `${route.name}: ${contentType}`).toContain(
      contentType.split(';')[0],
    );
  }
}

async function call(
  method: string,
  path: string,
  options: Parameters<typeof api>[2] = {},
): Promise<ApiResponse> {
  const response = await api(method, path, options);
  expectDocumented(
    method,
    path,
    response.status,
    response.headers.get('content-type') ?? '',
    response.body,
    response.text,
    response.headers,
  );
  return response;
}

/** The typed client, every answer checked against the document as it arrives. */
function checkedClient(headers: Record<string, string>) {
  const checkedFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.clone().text();
    const contentType = response.headers.get('content-type') ?? '';
    const url = new URL(String(input));
    expectDocumented(
      init?.method ?? 'GET',
      url.pathname,
      response.status,
      contentType,
      contentType.startsWith('application/json') && text ? JSON.parse(text) : undefined,
      text,
      response.headers,
    );
    return response;
  };
  return createClient({ baseUrl: stack().baseUrl, headers, fetch: checkedFetch });
}

/** The code of the ApiError a call throws. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return `${(error as ApiError).status} ${(error as ApiError).code}`;
}

describe('real answers match openapi.json', () => {
  afterAll(() => {
    // Kept beside the test so a new route shows up here as not exercised.
    expect(
      routes
        .filter(documentedRoute)
        .map((r) => r.name)
        .filter((name) => !exercised.has(name)),
    ).toEqual([]);
  });

  it('every management route, success and error answers', async () => {
    expect((await call('GET', '/v1/forms', { key: null })).status).toBe(401);
    const created = await call('POST', '/v1/forms', { body: { name: 'Documented' } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await call('POST', '/v1/forms', { body: { nope: 1 } })).status).toBe(400);
    expect((await call('GET', '/v1/forms')).status).toBe(200);
    expect((await call('GET', `/v1/forms/${id}`)).status).toBe(200);
    expect(
      (await call('PATCH', `/v1/forms/${id}`, { body: { emoji: '📮', maxSubmissions: 50 } }))
        .status,
    ).toBe(200);
    const copy = await call('POST', `/v1/forms/${id}/duplicate`, { body: {} });
    expect(copy.status).toBe(201);
    expect((await call('POST', `/v1/forms/${id}/rotate-key`)).status).toBe(200);
    const test = await call('POST', `/v1/forms/${id}/test-submissions`);
    expect(test.status).toBe(201);
    const submissionId = test.body.submissionId as string;
    expect((await call('GET', `/v1/forms/${id}/submissions?pageSize=5`)).status).toBe(200);
    expect((await call('GET', `/v1/forms/${id}/submissions/${submissionId}`)).status).toBe(200);
    expect(
      (
        await call('PATCH', `/v1/forms/${id}/submissions`, {
          body: { target: { ids: [submissionId] }, starred: true },
        })
      ).status,
    ).toBe(200);
    expect((await call('GET', `/v1/forms/${id}/submissions/${submissionId}/files/0`)).status).toBe(
      404,
    );
    const csv = await call('GET', `/v1/forms/${id}/export.csv?filter=all`);
    expect(csv.status).toBe(200);

    expect((await call('GET', `/v1/forms/${id}/webhook`)).status).toBe(404);
    const connected = await call('PUT', `/v1/forms/${id}/webhook`, {
      body: { url: 'https://hooks.example.com/documented' },
    });
    expect(connected.status).toBe(201);
    expect((await call('GET', `/v1/forms/${id}/webhook`)).status).toBe(200);
    expect((await call('POST', `/v1/forms/${id}/webhook/rotate-secret`)).status).toBe(200);
    expect((await call('GET', `/v1/forms/${id}/webhook/deliveries?limit=10`)).status).toBe(200);
    const retry = await call('POST', `/v1/forms/${id}/webhook/deliveries/${submissionId}/retry`);
    expect([404, 409]).toContain(retry.status);
    expect((await call('DELETE', `/v1/forms/${id}/webhook`)).status).toBe(200);

    // Integrations: connected and removed with no post in between (nothing is sent).
    expect((await call('GET', `/v1/forms/${id}/integrations`)).status).toBe(200);
    expect(
      (
        await call('PUT', `/v1/forms/${id}/integrations/slack`, {
          body: { webhookUrl: 'https://hooks.slack.com/services/T0/B0/documented' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('PUT', `/v1/forms/${id}/integrations/discord`, {
          body: { webhookUrl: 'https://example.com/not-discord' },
        })
      ).status,
    ).toBe(400);
    expect((await call('GET', `/v1/forms/${id}/integrations`)).status).toBe(200);
    expect(
      (await call('GET', `/v1/forms/${id}/integrations/slack/deliveries?limit=10`)).status,
    ).toBe(200);
    const chatRetry = await call(
      'POST',
      `/v1/forms/${id}/integrations/slack/deliveries/${submissionId}/retry`,
    );
    expect(chatRetry.status).toBe(404);
    expect((await call('DELETE', `/v1/forms/${id}/integrations/slack`)).status).toBe(204);
    expect((await call('DELETE', `/v1/forms/${id}/integrations/slack`)).status).toBe(404);
    // Sheets: the local stack's sample spreadsheet (shared with its development account).
    const sheet = { spreadsheetId: stack().google!.spreadsheetId };
    const sheets = `/v1/forms/${id}/integrations/sheets`;
    expect((await call('PUT', sheets, { body: sheet })).status).toBe(200);
    expect((await call('PUT', sheets, { body: { ...sheet, sheetName: 'Nope' } })).status).toBe(400);
    expect((await call('PUT', sheets, { body: { spreadsheetId: 'unknown-sheet' } })).status).toBe(
      400,
    );
    expect((await call('GET', `/v1/forms/${id}/integrations`)).status).toBe(200);
    expect((await call('DELETE', sheets)).status).toBe(204);

    expect(
      (
        await call('DELETE', `/v1/forms/${id}/submissions`, {
          body: { target: { ids: [submissionId] } },
        })
      ).status,
    ).toBe(200);
    expect((await call('DELETE', `/v1/forms/${copy.body.id}`)).status).toBe(200);
    expect((await call('DELETE', `/v1/forms/${id}`)).status).toBe(200);
    expect((await call('GET', `/v1/forms/${id}`)).status).toBe(404);
  });

  it('the public routes: submit (JSON answers) and the document itself', async () => {
    const created = await call('POST', '/v1/forms', { body: { name: 'Documented submit' } });
    const key = created.body.key as string;
    const accepted = await call('POST', `/s/${key}`, {
      key: null,
      body: { email: 'ada@example.com', message: 'Hi' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.submissionId).toBeTruthy();
    expect((await call('POST', `/s/${key}`, { key: null, body: { message: ' ' } })).status).toBe(
      422,
    );
    expect(
      (
        await call('POST', `/s/${key}`, {
          key: null,
          rawBody: '<x/>',
          headers: { 'content-type': 'text/xml' },
        })
      ).status,
    ).toBe(415);
    expect(
      (await call('POST', '/s/no-such-form-key', { key: null, body: { a: 'b' } })).status,
    ).toBe(404);
    // Direct uploads: presigned POSTs, and the refusals of the same envelope.
    expect(
      (await call('PATCH', `/v1/forms/${created.body.id}`, { body: { allowUploads: true } }))
        .status,
    ).toBe(200);
    const granted = await call('POST', `/s/${key}/uploads`, {
      key: null,
      body: { files: [{ name: 'cv.pdf', size: 1000, type: 'application/pdf' }] },
    });
    expect(granted.status).toBe(200);
    expect(
      (await call('POST', `/s/${key}/uploads`, { key: null, body: { files: [] } })).status,
    ).toBe(400);
    expect(
      (
        await call('POST', `/s/${key}/uploads`, {
          key: null,
          body: { files: [{ name: 'setup.exe', size: 10 }] },
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await call('POST', '/s/no-such-form-key/uploads', {
          key: null,
          body: { files: [{ name: 'a.txt', size: 1 }] },
        })
      ).status,
    ).toBe(404);
    expect((await call('GET', '/v1/openapi.json', { key: null })).status).toBe(200);
    expect((await call('GET', '/v1/docs', { key: null })).status).toBe(200);
    expect((await call('GET', '/v1/docs/redoc.js', { key: null })).status).toBe(200);
    // A confirmation link (docs/submit.md#confirm-by-email): its page, the click, a second
    // click, an expired link and a forged one.
    const confirming = await call('POST', '/v1/forms', { body: { name: 'Documented confirm' } });
    expect(
      (
        await call('PATCH', `/v1/forms/${confirming.body.id}`, {
          body: {
            fields: [{ id: 'email', type: 'email', required: true }],
            confirmEmail: { field: 'email' },
          },
        })
      ).status,
    ).toBe(200);
    const pending = await call('POST', `/s/${confirming.body.key}`, {
      key: null,
      body: { email: 'grace@example.com' },
    });
    expect(pending.body.pending).toBe('confirm_email');
    const link = (expiresIn: number) =>
      `/c/${confirmToken(inject('keyedHashSecret'), {
        teamId: stack().teams.pro,
        formId: confirming.body.id as string,
        submissionId: pending.body.submissionId as string,
        expiresAt: Math.floor(Date.now() / 1000) + expiresIn,
      })}`;
    expect((await call('GET', link(600), { key: null })).status).toBe(200);
    expect((await call('POST', link(-1), { key: null })).status).toBe(410);
    expect((await call('POST', link(600), { key: null })).status).toBe(200);
    expect((await call('POST', link(600), { key: null })).status).toBe(200);
    expect((await call('GET', '/c/not-a-token', { key: null })).status).toBe(404);
    expect((await call('POST', '/c/not-a-token', { key: null })).status).toBe(404);
    // The hosted form page, its JSON (open to any site, then locked to one) and the embed script.
    const html = { accept: 'text/html' };
    expect((await call('GET', `/f/${key}`, { key: null, headers: html })).status).toBe(200);
    expect((await call('GET', '/f/no-such-form-key', { key: null })).status).toBe(404);
    expect((await call('GET', '/f/no-such-form-key', { key: null, headers: html })).status).toBe(
      404,
    );
    expect((await call('GET', `/f/${key}/form.json`, { key: null })).status).toBe(200);
    expect((await call('GET', '/f/no-such-form-key/form.json', { key: null })).status).toBe(404);
    const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' };
    expect((await call('POST', `/f/${key}/views`, { key: null, headers: browser })).status).toBe(
      204,
    );
    expect(
      (await call('POST', '/f/no-such-form-key/views', { key: null, headers: browser })).status,
    ).toBe(404);
    // A step of the funnel, and a step the form does not have (docs/analytics.md#the-funnel).
    expect(
      (await call('POST', `/f/${key}/views?reached=started`, { key: null, headers: browser }))
        .status,
    ).toBe(204);
    expect(
      (await call('POST', `/f/${key}/views?reached=2`, { key: null, headers: browser })).status,
    ).toBe(400);
    // The view image of a page without script: an SVG, and 404 for no form.
    expect((await call('GET', `/f/${key}/views`, { key: null, headers: browser })).status).toBe(
      200,
    );
    expect(
      (await call('GET', '/f/no-such-form-key/views', { key: null, headers: browser })).status,
    ).toBe(404);
    expect(
      (await call('GET', `/v1/forms/${created.body.id}/summary?tz=Europe%2FParis`)).status,
    ).toBe(200);
    expect((await call('GET', `/v1/forms/${created.body.id}/summary?from=2026-02-30`)).status).toBe(
      400,
    );
    await call('PATCH', `/v1/forms/${created.body.id}`, {
      body: { allowedOrigins: ['https://shop.example'] },
    });
    expect(
      (
        await call('GET', `/f/${key}/form.json`, {
          key: null,
          headers: { origin: 'https://elsewhere.example' },
        })
      ).status,
    ).toBe(403);
    expect((await call('GET', '/embed.js', { key: null })).status).toBe(200);
    expect((await call('DELETE', `/v1/forms/${created.body.id}`)).status).toBe(200);
  });

  it('the accounts routes and the search, through the typed client', async () => {
    const owner = await teamWithOwner('pro');
    const client = checkedClient({ authorization: `Bearer ${owner.apiKey}` });
    const session = await client.call('getSession');
    expect(session.body.user.email).toBe(owner.email);
    expect((await client.call('getTeam')).body.teamId).toBe(owner.teamId);
    expect(
      (await client.call('updateTeam', { body: { ipStorage: 'keyedHash' } })).body.ipStorage,
    ).toBe('keyedHash');
    const invited = await client.call('inviteMember', {
      body: { email: `member-${owner.teamId.slice(0, 8)}@example.com`, role: 'member' },
    });
    expect(invited.status).toBe(201);
    expect(
      await refusal(client.call('inviteMember', { body: { email: invited.body.email } })),
    ).toBe('409 already_member');
    const userId = invited.body.userId;
    expect((await client.call('resendInvitation', { params: { userId } })).status).toBe(202);
    expect(
      (await client.call('updateMember', { params: { userId }, body: { name: 'Grace' } })).body
        .name,
    ).toBe('Grace');
    expect((await client.call('listMembers')).body.members).toHaveLength(2);
    const key = await client.call('createApiKey', { body: { name: 'Zapier' } });
    expect(key.status).toBe(201);
    expect((await client.call('listApiKeys')).body.apiKeys.length).toBeGreaterThanOrEqual(2);
    await client.call('revokeApiKey', { params: { keyId: key.body.keyId } });
    await client.call('removeMember', { params: { userId } });
    expect(
      await refusal(client.call('removeMember', { params: { userId: session.body.user.userId } })),
    ).toBe('409 last_owner');
    expect((await client.call('listAuditEvents', { query: { limit: 5 } })).body.events.length).toBe(
      5,
    );
    expect(await refusal(client.call('listSessions'))).toBe('400 no_session');

    // A person's submissions by email (docs/privacy.md): none in this new team.
    const address = `person-${owner.teamId.slice(0, 8)}@example.com`;
    const exported = await client.call('exportPersonSubmissions', { query: { email: address } });
    expect(exported.status).toBe(200);
    const erased = await client.call('erasePersonSubmissions', { body: { email: address } });
    expect(erased.body).toEqual({ count: 0, forms: [] });
    expect(
      await refusal(client.call('erasePersonSubmissions', { body: { email: 'not an address' } })),
    ).toBe('400 invalid_request');

    // The suppression list (docs/delivery.md#suppressed-addresses): empty in a new team.
    expect((await client.call('listSuppressions', { query: {} })).body).toEqual({
      suppressions: [],
      next: null,
    });
    expect(
      await refusal(client.call('listSuppressions', { query: { cursor: 'not a cursor' } })),
    ).toBe('400 invalid_request');
    expect(await refusal(client.call('liftSuppression', { params: { email: address } }))).toBe(
      '404 not_found',
    );

    const form = await client.call('createForm', { body: { name: 'Searched' } });
    const found = await client.call('searchSubmissions', {
      params: { id: form.body.id },
      query: { q: 'anything' },
    });
    expect(found.body.items).toEqual([]);

    // A person: sign-in by email, then the session's own routes with its cookie.
    const mailed = await signInEmailsTo(owner.email);
    const asked = await authPost('/v1/auth/sign-in', { email: owner.email });
    expectDocumented(
      'POST',
      '/v1/auth/sign-in',
      asked.status,
      'application/json',
      asked.body,
      asked.text,
    );
    expect(asked.status).toBe(202);
    const wrong = await verify({ email: owner.email, code: '000000' });
    expectDocumented(
      'POST',
      '/v1/auth/verify',
      wrong.status,
      'application/json',
      wrong.body,
      wrong.text,
    );
    // The first email must be in before the second is asked for, or it would be taken for it.
    await signInEmailTo(owner.email, mailed);
    const { code } = await requestSignIn(owner.email);
    const signedIn = await verify({ email: owner.email, code });
    expectDocumented(
      'POST',
      '/v1/auth/verify',
      signedIn.status,
      'application/json',
      signedIn.body,
      signedIn.text,
    );
    const person = checkedClient({
      cookie: cookieOf(signedIn),
      'sec-fetch-site': 'same-origin',
    });
    expect((await person.call('listSessions')).body.sessions.some((s) => s.current)).toBe(true);
    const switched = await person.call('switchTeam', { body: { teamId: owner.teamId } });
    expect(switched.body.teamId).toBe(owner.teamId);
    // The switch ends this session and starts another: go on with the new cookie.
    const moved = checkedClient({
      cookie: (switched.headers.get('set-cookie') ?? '').split(';')[0]!,
      'sec-fetch-site': 'same-origin',
    });
    expect(await refusal(person.call('getSession'))).toBe('401 unauthorized');
    await moved.call('endOtherSessions');
    await moved.call('signOut');
    expect(await refusal(moved.call('getSession'))).toBe('401 unauthorized');
  });
});
