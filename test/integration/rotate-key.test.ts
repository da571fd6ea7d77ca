import { describe, expect, it } from 'vitest';
import { newTeam } from '#test/support/admin.ts';
import { api, stack } from '#test/support/api.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

describe('POST /v1/forms/{id}/rotate-key', () => {
  it('gives a new key and endpoint, and the old key stops resolving on the very next lookup', async () => {
    const { forms } = await localStore();
    const created = await api('POST', '/v1/forms', { body: { name: 'Rotating' } });
    const oldKey = created.body.key as string;
    expect(await forms.findFormKey(oldKey)).toMatchObject({ formId: created.body.id });

    const rotated = await api('POST', `/v1/forms/${created.body.id}/rotate-key`);
    expect(rotated.status).toBe(200);
    const newKey = rotated.body.key as string;
    expect(newKey).not.toBe(oldKey);
    expect(newKey).toMatch(/^[a-z][a-z0-9]{11}$/);
    expect(rotated.body.endpoint).toBe(`${stack().baseUrl}/s/${newKey}`);
    expect((rotated.body.updatedAt as string) > (created.body.updatedAt as string)).toBe(true);
    const { key: _k, endpoint: _e, updatedAt: _u, ...unchanged } = created.body;
    expect(rotated.body).toMatchObject(unchanged);

    expect(await forms.findFormKey(oldKey)).toBeUndefined();
    expect(await forms.findFormKey(newKey)).toMatchObject({ formId: created.body.id });
    expect(await forms.findFormKey(newKey.toUpperCase())).toMatchObject({
      formId: created.body.id,
    });
    expect((await api('GET', `/v1/forms/${created.body.id}`)).body.key).toBe(newKey);
  });

  it('concurrent rotations leave exactly one key that resolves, the one the form shows', async () => {
    const { forms } = await localStore();
    const created = await api('POST', '/v1/forms', { body: { name: 'Raced' } });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => api('POST', `/v1/forms/${created.body.id}/rotate-key`)),
    );
    for (const r of results) expect([200, 409]).toContain(r.status);
    expect(results.some((r) => r.status === 200)).toBe(true);
    const final = (await api('GET', `/v1/forms/${created.body.id}`)).body.key as string;
    const seen = [
      created.body.key as string,
      ...results.filter((r) => r.status === 200).map((r) => r.body.key as string),
    ];
    for (const key of new Set(seen)) {
      const mapping = await forms.findFormKey(key);
      if (key === final)
        expect(mapping, `current key ${key}`).toMatchObject({ formId: created.body.id });
      else expect(mapping, `stale key ${key}`).toBeUndefined();
    }
  });

  it("answers 404 for another team's form and for an unknown id", async () => {
    const created = await api('POST', '/v1/forms', { body: { name: 'Mine' } });
    const other = await newTeam('pro');
    const foreign = await api('POST', `/v1/forms/${created.body.id}/rotate-key`, {
      key: other.apiKey,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ ok: false, error: 'not_found' });
    const unknown = await api('POST', '/v1/forms/00000000-0000-4000-8000-000000000000/rotate-key');
    expect(unknown.status).toBe(404);
    expect((await api('GET', `/v1/forms/${created.body.id}`)).body.key).toBe(created.body.key);
  });
});

describe('the public endpoint across a key rotation', () => {
  it('the old endpoint answers 404 on the very next post; the new one takes it', async () => {
    const created = await api('POST', '/v1/forms', { body: { name: 'Rotating endpoint' } });
    const oldKey = created.body.key as string;
    const before = await submit(oldKey, { json: { message: 'before' }, from: freshVisitor() });
    expect(before.status).toBe(200);
    const rotated = await api('POST', `/v1/forms/${created.body.id}/rotate-key`);
    const stale = await submit(oldKey, { json: { message: 'stale' }, from: freshVisitor() });
    expect(stale.status).toBe(404);
    expect(stale.body).toMatchObject({ ok: false, error: 'not_found' });
    const fresh = await submit(rotated.body.key as string, {
      json: { message: 'after' },
      from: freshVisitor(),
    });
    expect(fresh.status).toBe(200);
  });
});
