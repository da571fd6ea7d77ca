import { describe, expect, it } from 'vitest';
import { newTeam } from '#test/support/admin.ts';
import { api } from '#test/support/api.ts';

describe('POST /v1/forms/{id}/duplicate', () => {
  it('copies settings and fields into a new form with a new id, key and the " copy" suffix', async () => {
    const source = await api('POST', '/v1/forms', { body: { name: 'Original', type: 'rsvp' } });
    const copy = await api('POST', `/v1/forms/${source.body.id}/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.body.name).toBe('Original copy');
    expect(copy.body.id).not.toBe(source.body.id);
    expect(copy.body.key).not.toBe(source.body.key);
    const {
      id: _i,
      key: _k,
      endpoint: _e,
      name: _n,
      createdAt: _c,
      updatedAt: _u,
      ...settings
    } = source.body;
    expect(copy.body).toMatchObject(settings);
    expect(copy.body).toMatchObject({
      status: 'active',
      closedReason: null,
      maxSubmissions: null,
      autoCloseAt: null,
    });
    const list = await api<{ forms: { id: string; submissionCount: number }[] }>(
      'GET',
      '/v1/forms',
    );
    expect(list.body.forms.find((f) => f.id === copy.body.id)?.submissionCount).toBe(0);
  });

  it('adds a given nameSuffix, and refuses one that makes the name longer than 200 characters', async () => {
    const source = await api('POST', '/v1/forms', { body: { name: 'n'.repeat(190) } });
    const ok = await api('POST', `/v1/forms/${source.body.id}/duplicate`, {
      body: { nameSuffix: ' (v2)' },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.name).toBe(`${'n'.repeat(190)} (v2)`);
    const tooLong = await api('POST', `/v1/forms/${source.body.id}/duplicate`, {
      body: { nameSuffix: 'x'.repeat(11) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ ok: false, error: 'invalid_request' });
    const notString = await api('POST', `/v1/forms/${source.body.id}/duplicate`, {
      body: { nameSuffix: 3 },
    });
    expect(notString.status).toBe(400);
  });

  it('counts toward the Free limit: 10 parallel duplicates on a Free team holding 2 forms create exactly 1', async () => {
    const team = await newTeam('free');
    const first = await api('POST', '/v1/forms', { key: team.apiKey, body: { name: 'One' } });
    await api('POST', '/v1/forms', { key: team.apiKey, body: { name: 'Two' } });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        api('POST', `/v1/forms/${first.body.id}/duplicate`, { key: team.apiKey }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = results.filter((r) => r.status === 402);
    expect(refused).toHaveLength(9);
    expect(refused[0]!.body).toMatchObject({ ok: false, error: 'form_limit_reached' });
    const list = await api<{ forms: unknown[] }>('GET', '/v1/forms', { key: team.apiKey });
    expect(list.body.forms).toHaveLength(3);
  });

  it("answers 404 for another team's form", async () => {
    const source = await api('POST', '/v1/forms', { body: { name: 'Private' } });
    const other = await newTeam('pro');
    const response = await api('POST', `/v1/forms/${source.body.id}/duplicate`, {
      key: other.apiKey,
    });
    expect(response.status).toBe(404);
    const theirs = await api<{ forms: unknown[] }>('GET', '/v1/forms', { key: other.apiKey });
    expect(theirs.body.forms).toEqual([]);
  });
});
