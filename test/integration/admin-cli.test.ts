import { describe, expect, it } from 'vitest';
import { admin } from '#test/support/admin.ts';
import { api } from '#test/support/api.ts';

describe('admin CLI', () => {
  it('team create prints a key that works on the API, shown once and stored hashed', async () => {
    const result = await admin(
      'team',
      'create',
      '--name',
      'A',
      '--email',
      'a@example.com',
      '--plan',
      'pro',
    );
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout) as { teamId: string; userId: string; apiKey: string };
    expect(created.apiKey).toMatch(/^fsk_[a-z0-9]{16}_[A-Za-z0-9_-]{43}$/);
    const form = await api('POST', '/v1/forms', { key: created.apiKey, body: { name: 'Works' } });
    expect(form.status).toBe(201);
    expect(form.body.userId).toBe(created.userId);

    const listed = await admin('team', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(created.teamId);
    expect(listed.stdout).not.toContain(created.apiKey);
  });

  it('team plan switches a Free team to Pro, lifting the form limit', async () => {
    const result = await admin(
      'team',
      'create',
      '--name',
      'B',
      '--email',
      'b@example.com',
      '--plan',
      'free',
    );
    const team = JSON.parse(result.stdout) as { teamId: string; apiKey: string };
    for (let i = 0; i < 3; i++)
      await api('POST', '/v1/forms', { key: team.apiKey, body: { name: `F${i}` } });
    expect(
      (await api('POST', '/v1/forms', { key: team.apiKey, body: { name: 'F3' } })).status,
    ).toBe(402);
    expect((await admin('team', 'plan', '--team', team.teamId, '--plan', 'pro')).code).toBe(0);
    expect(
      (await api('POST', '/v1/forms', { key: team.apiKey, body: { name: 'F3' } })).status,
    ).toBe(201);
  });

  it.each([
    [[]],
    [['team']],
    [['team', 'create', '--name', 'A', '--email', 'a@example.com']],
    [['team', 'create', '--name', 'A', '--email', 'not-an-email', '--plan', 'pro']],
    [['team', 'create', '--name', 'A', '--email', 'a@example.com', '--plan', 'gold']],
    [['key', 'create']],
    [['key', 'revoke']],
    [['team', 'create', '--bogus']],
  ])('prints usage and exits 2 for bad arguments %j', async (args) => {
    const result = await admin(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('usage: npm run admin');
  });

  it('exits 1 with a message for a team or key that does not exist', async () => {
    const plan = await admin('team', 'plan', '--team', 'nope', '--plan', 'pro');
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('no team nope');
    const revoke = await admin('key', 'revoke', '--key', 'nope');
    expect(revoke.code).toBe(1);
  });
});
