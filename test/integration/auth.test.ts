import { describe, expect, it } from 'vitest';
import { admin, newTeam } from '#test/support/admin.ts';
import { api } from '#test/support/api.ts';

const UNAUTHORIZED = { ok: false, error: 'unauthorized' };

describe('API key authentication', () => {
  it.each([
    ['no Authorization header', null, undefined],
    ['a scheme other than Bearer', null, { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a malformed key', 'not-a-key', undefined],
    ['a well-formed key nobody issued', `fsk_0123456789abcdef_${'A'.repeat(43)}`, undefined],
  ])('answers 401 with the envelope for %s', async (_what, key, headers) => {
    const response = await api('POST', '/v1/forms', { key, body: { name: 'Contact' }, headers });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject(UNAUTHORIZED);
    expect(typeof response.body.message).toBe('string');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers 401 for a real key id with the wrong secret', async () => {
    const team = await newTeam('pro');
    const forged = team.apiKey.replace(/_[^_]+$/, `_${'B'.repeat(43)}`);
    const response = await api('GET', '/v1/forms', { key: forged });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject(UNAUTHORIZED);
  });

  it('stops accepting a key as soon as it is revoked, and only that key', async () => {
    const team = await newTeam('pro');
    const created = await admin('key', 'create', '--team', team.teamId);
    expect(created.code).toBe(0);
    const second = JSON.parse(created.stdout) as { keyId: string; apiKey: string };
    expect((await api('GET', '/v1/forms', { key: second.apiKey })).status).toBe(200);

    const revoked = await admin('key', 'revoke', '--key', second.keyId);
    expect(revoked.code).toBe(0);
    const refused = await api('GET', '/v1/forms', { key: second.apiKey });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject(UNAUTHORIZED);
    expect((await api('GET', '/v1/forms', { key: team.apiKey })).status).toBe(200);
  });

  it('checks the key before the body: a bad body with no key is 401, not 400', async () => {
    const response = await api('POST', '/v1/forms', {
      key: null,
      rawBody: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject(UNAUTHORIZED);
  });

  it.each([
    ['PATCH', '', { body: { name: '' } }],
    ['POST', '/duplicate', { body: { nameSuffix: 42 } }],
    ['GET', '/submissions?pageSize=0', {}],
    ['PATCH', '/submissions', { body: { target: { filter: 'nope' } } }],
    ['DELETE', '/submissions', { body: {} }],
    ['GET', '/export.csv?filter=nope', {}],
    ['PUT', '/webhook', { body: { url: 'not a url' } }],
    ['GET', '/webhook/deliveries?limit=0', {}],
    ['GET', '/summary?to=9999-12-31', {}],
  ] as const)(
    "another team's form answers 404 before its body or query is read: %s %s",
    async (method, path, request) => {
      const owner = await newTeam('pro');
      const other = await newTeam('pro');
      const form = await api('POST', '/v1/forms', { key: owner.apiKey, body: { name: 'Theirs' } });
      const url = `/v1/forms/${form.body.id}${path}`;
      const foreign = await api(method, url, { key: other.apiKey, ...request });
      expect(foreign.status, foreign.text).toBe(404);
      expect(foreign.body).toMatchObject({ ok: false, error: 'not_found' });
      // The same request from the owner is refused for its body or query.
      expect((await api(method, url, { key: owner.apiKey, ...request })).status).toBe(400);
    },
  );
});
