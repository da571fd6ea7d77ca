import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, inject, it } from 'vitest';
import { visitorHash } from '#domain/visitor-ip.ts';
import {
  asMember,
  cookieOf,
  invitationTo,
  signedIn,
  teamWithOwner,
  verify,
} from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { connectWebhook, newReceiver } from '#test/support/delivery.ts';
import { storedItems } from '#test/support/forms.ts';
import { freshVisitor, inOneMinute, submit } from '#test/support/submit.ts';

/** The test stack's keyed-hash secret (test/integration/global-setup.ts). */
const secret = () => inject('keyedHashSecret');

async function teamKeepingHashes() {
  const owner = await teamWithOwner('pro');
  const set = await api('PATCH', '/v1/team', {
    key: owner.apiKey,
    body: { ipStorage: 'keyedHash' },
  });
  expect(set.status, set.text).toBe(200);
  expect(set.body.ipStorage).toBe('keyedHash');
  return owner;
}

async function formOf(apiKey: string, settings: Record<string, unknown> = {}) {
  const created = await api('POST', '/v1/forms', {
    key: apiKey,
    body: { name: 'Visitors', type: 'custom' },
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  if (Object.keys(settings).length > 0) {
    const patched = await api('PATCH', `/v1/forms/${id}`, { key: apiKey, body: settings });
    expect(patched.status, patched.text).toBe(200);
  }
  return { id, key: created.body.key as string, apiKey, teamId: '' };
}

async function post(formKey: string, from: string, message: string): Promise<string> {
  const response = await submit(formKey, { json: { message }, from });
  expect(response.status, response.text).toBe(200);
  return response.body?.submissionId as string;
}

async function storedIpOf(formId: string, submissionId: string): Promise<unknown> {
  const item = (await storedItems(formId)).find((stored) => stored.id === submissionId);
  if (!item) throw new Error(`submission ${submissionId} not stored`);
  return (item.meta as { ip?: string }).ip;
}

async function exportedIps(formId: string, apiKey: string): Promise<string[]> {
  const response = await fetch(`${stack().baseUrl}/v1/forms/${formId}/export.csv`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(response.status).toBe(200);
  const [header, ...rows] = parseCsv(Buffer.from(await response.arrayBuffer()), {
    bom: true,
  }) as string[][];
  const column = header!.indexOf('ip');
  return rows.map((row) => row[column]!);
}

describe('team setting ipStorage (docs/people.md#visitor-addresses)', () => {
  it('GET /v1/team says address for a team that never chose', async () => {
    const owner = await teamWithOwner('free');
    const team = await api('GET', '/v1/team', { key: owner.apiKey });
    expect(team.status, team.text).toBe(200);
    expect(team.body.ipStorage).toBe('address');
  });

  it('keyedHash: meta.ip is the team-keyed hash, the same for one address, another for another team; the CSV carries it', async () => {
    const owner = await teamKeepingHashes();
    const other = await teamKeepingHashes();
    const form = await formOf(owner.apiKey);
    const otherForm = await formOf(other.apiKey);
    const visitor = freshVisitor();
    const first = await post(form.key, visitor, 'first');
    const second = await post(form.key, visitor, 'second');
    const elsewhere = await post(otherForm.key, visitor, 'elsewhere');

    const hash = await storedIpOf(form.id, first);
    expect(hash).toMatch(/^hash:[0-9a-f]{16}$/);
    expect(hash).toBe(visitorHash(secret(), owner.teamId, visitor));
    expect(hash).not.toContain(visitor);
    expect(await storedIpOf(form.id, second)).toBe(hash);
    const otherHash = await storedIpOf(otherForm.id, elsewhere);
    expect(otherHash).toMatch(/^hash:[0-9a-f]{16}$/);
    expect(otherHash).not.toBe(hash);

    const read = await api('GET', `/v1/forms/${form.id}/submissions/${first}`, {
      key: owner.apiKey,
    });
    expect(read.status, read.text).toBe(200);
    expect((read.body.meta as { ip?: string }).ip).toBe(hash);
    expect(await exportedIps(form.id, owner.apiKey)).toEqual([hash, hash]);
  });

  it('keyedHash: the webhook payload carries no address (it carries no meta at all)', async () => {
    const owner = await teamKeepingHashes();
    const form = await formOf(owner.apiKey);
    const receiver = await newReceiver();
    try {
      await connectWebhook({ ...form, teamId: owner.teamId }, receiver.url);
      const visitor = freshVisitor();
      const id = await post(form.key, visitor, 'hooked');
      const [hook] = await receiver.waitFor(1);
      const payload = JSON.parse(hook!.body) as { data: Record<string, unknown> };
      expect(payload.data.submissionId).toBe(id);
      expect(hook!.body).not.toContain(visitor);
      expect(payload.data).not.toHaveProperty('meta');
    } finally {
      await receiver.close();
    }
  });

  it('keyedHash: block lists and the per-IP rate limit still act on the address as sent', async () => {
    const owner = await teamKeepingHashes();
    const blockedVisitor = freshVisitor();
    const blocking = await formOf(owner.apiKey, { blockedIps: [blockedVisitor] });
    const dropped = await submit(blocking.key, { json: { message: 'x' }, from: blockedVisitor });
    expect(dropped.status).toBe(200);
    expect(dropped.body).toEqual({ ok: true });
    expect(await storedItems(blocking.id)).toHaveLength(0);
    await post(blocking.key, freshVisitor(), 'not blocked');
    expect(await storedItems(blocking.id)).toHaveLength(1);

    const form = await formOf(owner.apiKey);
    const statuses = await inOneMinute(async () => {
      const visitor = freshVisitor();
      const each: number[] = [];
      for (let i = 0; i < 31; i++) {
        each.push((await submit(form.key, { json: { n: String(i) }, from: visitor })).status);
      }
      return each;
    });
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect((await submit(form.key, { json: { n: 'other' }, from: freshVisitor() })).status).toBe(
      200,
    );
  });

  it('dontStoreIp wins over keyedHash; switching back to address stores addresses again', async () => {
    const owner = await teamKeepingHashes();
    const quiet = await formOf(owner.apiKey, { dontStoreIp: true });
    const visitor = freshVisitor();
    expect(await storedIpOf(quiet.id, await post(quiet.key, visitor, 'quiet'))).toBeUndefined();

    const form = await formOf(owner.apiKey);
    const hashed = await post(form.key, visitor, 'hashed');
    const back = await api('PATCH', '/v1/team', {
      key: owner.apiKey,
      body: { ipStorage: 'address' },
    });
    expect(back.status, back.text).toBe(200);
    expect(back.body.ipStorage).toBe('address');
    const plain = await post(form.key, visitor, 'plain');
    expect(await storedIpOf(form.id, plain)).toBe(visitor);
    // What was stored before keeps its form: a hash is never turned back into an address.
    expect(await storedIpOf(form.id, hashed)).toMatch(/^hash:/);
  });

  it('owners only: a member gets 403 owner_only, a session needs its same-origin proof, bad values are 400', async () => {
    const owner = await teamWithOwner('pro');
    const ownerCookie = await signedIn(owner.email);
    const email = `member-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const invited = await asMember(ownerCookie, 'POST', '/v1/team/members', { body: { email } });
    expect(invited.status, invited.text).toBe(201);
    const { token } = await invitationTo(email);
    const memberCookie = cookieOf(await verify({ token }));

    const refused = await asMember(memberCookie, 'PATCH', '/v1/team', {
      body: { ipStorage: 'keyedHash' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ ok: false, error: 'owner_only' });

    const crossSite = await asMember(ownerCookie, 'PATCH', '/v1/team', {
      body: { ipStorage: 'keyedHash' },
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);

    const bad = await asMember(ownerCookie, 'PATCH', '/v1/team', { body: { ipStorage: 'none' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_request', issues: [{ path: 'ipStorage' }] });
    const unknown = await asMember(ownerCookie, 'PATCH', '/v1/team', { body: { plan: 'pro' } });
    expect(unknown.status).toBe(400);

    const team = await api('GET', '/v1/team', { key: owner.apiKey });
    expect(team.body.ipStorage).toBe('address');

    const set = await asMember(ownerCookie, 'PATCH', '/v1/team', {
      body: { ipStorage: 'keyedHash' },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ teamId: owner.teamId, ipStorage: 'keyedHash' });
  });

  it('a change is recorded in the audit trail; the same value again records nothing', async () => {
    const owner = await teamWithOwner('pro');
    for (const ipStorage of ['keyedHash', 'keyedHash', 'address']) {
      const set = await api('PATCH', '/v1/team', { key: owner.apiKey, body: { ipStorage } });
      expect(set.status, set.text).toBe(200);
    }
    const trail = await api('GET', '/v1/team/audit?limit=100', { key: owner.apiKey });
    expect(trail.status, trail.text).toBe(200);
    const changes = (trail.body.events as { action: string; target: string; details: unknown }[])
      .filter((event) => event.action === 'team.ip_storage_changed')
      .reverse();
    expect(changes.map((event) => [event.target, event.details])).toEqual([
      [owner.teamId, { ipStorage: 'keyedHash', previousIpStorage: 'address' }],
      [owner.teamId, { ipStorage: 'address', previousIpStorage: 'keyedHash' }],
    ]);
  });
});
