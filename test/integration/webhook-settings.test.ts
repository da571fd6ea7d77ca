import { describe, expect, it } from 'vitest';
import { newTeam } from '#test/support/admin.ts';
import { api, stack } from '#test/support/api.ts';

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

async function formOf(key = stack().apiKeys.pro) {
  return (await api('POST', '/v1/forms', { key, body: { name: 'Hooked' } })).body.id as string;
}

describe('webhook settings', () => {
  it('connect issues a whsec_ secret; a URL change keeps it; rotate replaces it; disconnect deletes it', async () => {
    const id = await formOf();
    expect((await api('GET', `/v1/forms/${id}/webhook`)).status).toBe(404);

    const connected = await api('PUT', `/v1/forms/${id}/webhook`, {
      body: { url: 'https://hooks.example.com/a' },
    });
    expect(connected.status).toBe(201);
    expect(connected.body).toMatchObject({
      url: 'https://hooks.example.com/a',
      state: 'active',
      lastError: null,
    });
    const secret = connected.body.secret as string;
    expect(secret).toMatch(SECRET);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect((await api('GET', `/v1/forms/${id}/webhook`)).body).toEqual(connected.body);

    const moved = await api('PUT', `/v1/forms/${id}/webhook`, {
      body: { url: 'https://hooks.example.com/b' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ url: 'https://hooks.example.com/b', secret });

    const rotated = await api('POST', `/v1/forms/${id}/webhook/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(SECRET);
    expect(rotated.body.secret).not.toBe(secret);
    expect((await api('GET', `/v1/forms/${id}/webhook`)).body.secret).toBe(rotated.body.secret);

    expect((await api('DELETE', `/v1/forms/${id}/webhook`)).body).toEqual({ ok: true });
    expect((await api('GET', `/v1/forms/${id}/webhook`)).status).toBe(404);
    expect((await api('DELETE', `/v1/forms/${id}/webhook`)).status).toBe(404);
    expect((await api('POST', `/v1/forms/${id}/webhook/rotate-secret`)).status).toBe(404);

    const reconnected = await api('PUT', `/v1/forms/${id}/webhook`, {
      body: { url: 'https://hooks.example.com/b' },
    });
    expect(reconnected.status).toBe(201);
    expect(reconnected.body.secret).not.toBe(rotated.body.secret);
  });

  it('a duplicated form gets the same URL with its own secret', async () => {
    const id = await formOf();
    const hook = await api('PUT', `/v1/forms/${id}/webhook`, {
      body: { url: 'https://hooks.example.com/dup' },
    });
    const copy = await api('POST', `/v1/forms/${id}/duplicate`);
    const copied = await api('GET', `/v1/forms/${copy.body.id}/webhook`);
    expect(copied.status).toBe(200);
    expect(copied.body.url).toBe('https://hooks.example.com/dup');
    expect(copied.body.secret).toMatch(SECRET);
    expect(copied.body.secret).not.toBe(hook.body.secret);
    expect((await api('GET', `/v1/forms/${id}/webhook`)).body.secret).toBe(hook.body.secret);
  });

  it('a Free team gets 402 plan_required and nothing is connected', async () => {
    const team = await newTeam('free');
    const id = await formOf(team.apiKey);
    const refused = await api('PUT', `/v1/forms/${id}/webhook`, {
      key: team.apiKey,
      body: { url: 'https://hooks.example.com/free' },
    });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ ok: false, error: 'plan_required' });
    expect((await api('GET', `/v1/forms/${id}/webhook`, { key: team.apiKey })).status).toBe(404);
  });

  it.each([
    ['http://hooks.example.com/x', 'not https'],
    ['https://', 'not a URL'],
    [`https://hooks.example.com/${'a'.repeat(2030)}`, 'longer than 2,048 characters'],
    ['https://10.0.0.5/hook', 'an IP address'],
    ['https://[fd00::1]/hook', 'an IPv6 address'],
    ['https://printer.local/hook', 'a local name'],
    ['https://app.localhost/hook', 'a local name under localhost'],
  ])('refuses %s (%s) with 400', async (url) => {
    const id = await formOf();
    const response = await api('PUT', `/v1/forms/${id}/webhook`, { body: { url } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ ok: false, error: 'invalid_request' });
    expect(response.body.issues).toEqual([expect.objectContaining({ path: 'url' })]);
  });

  it.each([
    'https://127.0.0.1:8443/hook',
    'https://localhost:8443/hook',
    'https://[::1]:8443/hook',
  ])(
    'the local stack takes the loopback receiver %s (a deployed stack never does)',
    async (url) => {
      const id = await formOf();
      const response = await api('PUT', `/v1/forms/${id}/webhook`, { body: { url } });
      expect(response.status, response.text).toBe(201);
      expect(response.body.url).toBe(url);
    },
  );

  it('accepts a URL of exactly 2,048 characters', async () => {
    const id = await formOf();
    const url = `https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`;
    expect(url).toHaveLength(2048);
    expect((await api('PUT', `/v1/forms/${id}/webhook`, { body: { url } })).status).toBe(201);
  });

  it("answers 404 on another team's form for every webhook route", async () => {
    const id = await formOf();
    await api('PUT', `/v1/forms/${id}/webhook`, { body: { url: 'https://hooks.example.com/p' } });
    const other = await newTeam('pro');
    for (const [method, path] of [
      ['GET', `/v1/forms/${id}/webhook`],
      ['PUT', `/v1/forms/${id}/webhook`],
      ['POST', `/v1/forms/${id}/webhook/rotate-secret`],
      ['DELETE', `/v1/forms/${id}/webhook`],
    ] as const) {
      const response = await api(method, path, {
        key: other.apiKey,
        body: method === 'PUT' ? { url: 'https://hooks.example.com/q' } : undefined,
      });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    expect((await api('GET', `/v1/forms/${id}/webhook`)).body.url).toBe(
      'https://hooks.example.com/p',
    );
  });
});
