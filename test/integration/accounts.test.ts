import { describe, expect, it, vi } from 'vitest';
import {
  asMember,
  authPost,
  cookieOf,
  invitationTo,
  requestSignIn,
  setCookieOf,
  signedIn,
  signInEmailTo,
  teamWithOwner,
  verify,
} from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { emailsTo, eventually } from '#test/support/delivery.ts';
import { freshVisitor } from '#test/support/submit.ts';

type ApiKeyRow = { keyId: string; revokedAt: string | null; lastUsedOn: string | null };
type AuditRow = { action: string; actor: Record<string, unknown> };

// Sign-in emails travel the local queue and SES emulator, shared with the whole suite.
vi.setConfig({ testTimeout: 90_000 });

describe('email sign-in', () => {
  it('by link: the email points at the configured base URL; the link works once and starts a session', async () => {
    const owner = await teamWithOwner();
    const { token } = await requestSignIn(owner.email);
    const [mail] = (await emailsTo(owner.email)).slice(-1);
    expect(mail?.body.text).toContain('/app/sign-in#token=');
    expect(mail?.body.html).toContain('/app/sign-in#token=');

    const first = await verify({ token });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      teamId: owner.teamId,
      user: { role: 'owner', email: owner.email },
    });
    const setCookie = setCookieOf(first);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    const cookie = cookieOf(first);

    const me = await asMember(cookie, 'GET', '/v1/auth/session');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      via: 'session',
      role: 'owner',
      team: { teamId: owner.teamId },
    });
    expect(me.headers.get('cache-control')).toBe('no-store');

    const again = await verify({ token });
    expect(again.status).toBe(401);
  });

  it('goes out with the stack’s configuration set, tagged kind=signin alone, as no team’s tenant (the SES emulator records the send)', async () => {
    const owner = await teamWithOwner();
    await requestSignIn(owner.email);
    const { calls } = (await (await fetch(new URL('/calls', stack().mailUrl))).json()) as {
      calls: {
        operation: string;
        ToAddresses?: string[];
        ConfigurationSetName?: string;
        EmailTags?: unknown;
        TenantName?: string;
      }[];
    };
    const sends = calls.filter(
      (call) => call.operation === 'SendEmail' && call.ToAddresses?.includes(owner.email),
    );
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({
      ConfigurationSetName: 'form-service-local',
      EmailTags: [{ Name: 'kind', Value: 'signin' }],
    });
    expect(sends[0]?.TenantName).toBeUndefined();
  });

  it('by code: a wrong code counts; after 5 tries in the hour even the right code fails, the link does not', async () => {
    const owner = await teamWithOwner();
    const { code } = await requestSignIn(owner.email);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 4; i++)
      expect((await verify({ email: owner.email, code: wrong })).status).toBe(401);
    const right = await verify({ email: owner.email, code });
    expect(right.status, right.text).toBe(200);

    const next = await requestSignIn(owner.email);
    const other = next.code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) await verify({ email: owner.email, code: other });
    expect((await verify({ email: owner.email, code: next.code })).status).toBe(401);
    expect((await verify({ token: next.token })).status, 'wrong codes never void a link').toBe(200);
  });

  it('answers an address that is nobody’s exactly as a member’s, and sends it nothing', async () => {
    const stranger = `nobody-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const owner = await teamWithOwner();
    const forStranger = await api('POST', '/v1/auth/sign-in', {
      key: null,
      body: { email: stranger },
    });
    const forMember = await api('POST', '/v1/auth/sign-in', {
      key: null,
      body: { email: owner.email },
    });
    expect(forStranger.status).toBe(202);
    expect(forStranger.body).toEqual(forMember.body);
    await signInEmailTo(owner.email);
    expect(await emailsTo(stranger)).toEqual([]);
  });

  it('two verifies of one code at once start exactly one session', async () => {
    const owner = await teamWithOwner();
    const { code } = await requestSignIn(owner.email);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => verify({ email: owner.email, code })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
    const winner = results.find((r) => r.status === 200)!;
    const cookie = cookieOf(winner);
    const sessions = await asMember(cookie, 'GET', '/v1/auth/sessions');
    expect(sessions.body.sessions).toHaveLength(1);
  });

  it('two verifies of one link at once start exactly one session', async () => {
    const owner = await teamWithOwner();
    const { token } = await requestSignIn(owner.email);
    const results = await Promise.all(Array.from({ length: 6 }, () => verify({ token })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it('sending is limited per address and requester: the sixth request from one network within the hour is 429 with Retry-After', async () => {
    const email = `limited-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const from = freshVisitor();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await authPost('/v1/auth/sign-in', { email }, from)).status);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    const refused = await authPost('/v1/auth/sign-in', { email }, from);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('verifying is limited per IP address: the 21st try within the minute from one address is 429', async () => {
    const from = freshVisitor();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push((await verify({ email: 'guess@example.com', code: '123456' }, from)).status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    // Another address is not held back.
    expect((await verify({ email: 'guess@example.com', code: '123456' })).status).toBe(401);
  });

  it('refuses bad input with 400 and the field, never a 500', async () => {
    for (const body of [
      {},
      { email: 'not an address' },
      { email: 'a@b.co', extra: 1 },
      { email: 7 },
    ]) {
      const response = await api('POST', '/v1/auth/sign-in', { key: null, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ ok: false, error: 'invalid_request' });
    }
    for (const body of [
      {},
      { token: 'short' },
      { email: 'a@b.co', code: '12345' },
      { token: 'x'.repeat(43), code: '123456' },
    ]) {
      const response = await verify(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('sessions', () => {
  it('sign-out ends the session at once; signing out others keeps this one', async () => {
    const owner = await teamWithOwner();
    const here = await signedIn(owner.email);
    const there = await signedIn(owner.email);
    const listed = await asMember(here, 'GET', '/v1/auth/sessions');
    expect(listed.body.sessions as { current: boolean }[]).toHaveLength(2);
    expect(
      (listed.body.sessions as { current: boolean }[]).filter(
        (s: { current: boolean }) => s.current,
      ),
    ).toHaveLength(1);

    const others = await asMember(here, 'DELETE', '/v1/auth/sessions');
    expect(others.body).toEqual({ count: 1 });
    expect((await asMember(there, 'GET', '/v1/forms')).status).toBe(401);
    expect((await asMember(here, 'GET', '/v1/forms')).status).toBe(200);

    const out = await asMember(here, 'POST', '/v1/auth/sign-out');
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/fs_session=;.*Max-Age=0/);
    expect((await asMember(here, 'GET', '/v1/forms')).status).toBe(401);
  });

  it('a signed-in change from another origin is refused (403 csrf), a read is not', async () => {
    const owner = await teamWithOwner();
    const cookie = await signedIn(owner.email);
    const crossSite = await asMember(cookie, 'POST', '/v1/forms', {
      body: { name: 'Forged' },
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toMatchObject({ ok: false, error: 'csrf' });
    const noProof = await api('POST', '/v1/forms', {
      key: null,
      body: { name: 'Forged' },
      headers: { cookie },
    });
    expect(noProof.status).toBe(403);
    expect((await asMember(cookie, 'GET', '/v1/forms')).body.forms).toEqual([]);
    const sameOrigin = await asMember(cookie, 'POST', '/v1/forms', { body: { name: 'Mine' } });
    expect(sameOrigin.status).toBe(201);
    expect(sameOrigin.body.userId).toBe(owner.userId);
  });
});

describe('members', () => {
  it('an invited member signs in, works in the team, cannot manage it, and is out at once when removed', async () => {
    const owner = await teamWithOwner();
    const ownerCookie = await signedIn(owner.email);
    const email = `member-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const invited = await asMember(ownerCookie, 'POST', '/v1/team/members', {
      body: { email: email.toUpperCase(), name: 'Grace' },
    });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body).toMatchObject({ email, name: 'Grace', role: 'member' });
    // The invitation's link signs the new member in (docs/people.md#invitations).
    const { token } = await invitationTo(email);
    const signedInMember = await verify({ token });
    expect(signedInMember.status).toBe(200);
    const memberCookie = cookieOf(signedInMember);

    const form = await asMember(memberCookie, 'POST', '/v1/forms', { body: { name: 'By Grace' } });
    expect(form.status).toBe(201);
    expect(form.body.userId).toBe(invited.body.userId);
    const ownerOnly = await asMember(memberCookie, 'GET', '/v1/team/members');
    expect(ownerOnly.status).toBe(403);
    expect(ownerOnly.body).toMatchObject({ error: 'owner_only' });

    const members = await asMember(ownerCookie, 'GET', '/v1/team/members');
    expect(
      (members.body.members as { email: string }[]).map((m: { email: string }) => m.email),
    ).toEqual([owner.email, email]);
    const team = await asMember(memberCookie, 'GET', '/v1/team');
    expect(team.body).toMatchObject({ memberCount: 2, formCount: 1, plan: 'pro', formLimit: null });

    const removed = await asMember(
      ownerCookie,
      'DELETE',
      `/v1/team/members/${invited.body.userId}`,
    );
    expect(removed.status).toBe(200);
    expect((await asMember(memberCookie, 'GET', '/v1/forms')).status).toBe(401);
  });

  it('the last owner can be neither removed nor made a member; a second owner makes it possible', async () => {
    const owner = await teamWithOwner();
    const cookie = await signedIn(owner.email);
    const demote = await asMember(cookie, 'PATCH', `/v1/team/members/${owner.userId}`, {
      body: { role: 'member' },
    });
    expect(demote.status).toBe(409);
    expect(demote.body).toMatchObject({ error: 'last_owner' });
    expect((await asMember(cookie, 'DELETE', `/v1/team/members/${owner.userId}`)).status).toBe(409);

    const second = await asMember(cookie, 'POST', '/v1/team/members', {
      body: { email: `second-${crypto.randomUUID().slice(0, 8)}@example.com`, role: 'owner' },
    });
    expect(second.status).toBe(201);
    const now = await asMember(cookie, 'PATCH', `/v1/team/members/${owner.userId}`, {
      body: { role: 'member' },
    });
    expect(now.status, now.text).toBe(200);
    // The session took the new role at once.
    expect((await asMember(cookie, 'GET', '/v1/team/members')).status).toBe(403);
  });

  it('inviting an address twice is 409 already_member', async () => {
    const owner = await teamWithOwner();
    const again = await api('POST', '/v1/team/members', {
      key: owner.apiKey,
      body: { email: owner.email },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'already_member' });
  });
});

describe('API keys in the product', () => {
  it('created keys are shown once and listed without secrets; a revoked key is refused at once', async () => {
    const owner = await teamWithOwner();
    const cookie = await signedIn(owner.email);
    const created = await asMember(cookie, 'POST', '/v1/team/api-keys', { body: { name: 'CI' } });
    expect(created.status, created.text).toBe(201);
    const apiKey = created.body.apiKey as string;
    expect(apiKey).toMatch(/^fsk_/);
    expect((await api('GET', '/v1/forms', { key: apiKey })).status).toBe(200);

    const listed = await asMember(cookie, 'GET', '/v1/team/api-keys');
    const ci = (listed.body.apiKeys as ApiKeyRow[]).find((k) => k.keyId === created.body.keyId);
    expect(ci).toMatchObject({ name: 'CI', createdByEmail: owner.email, revokedAt: null });
    expect(ci?.lastUsedOn).toBe(new Date().toISOString().slice(0, 10));
    // The secret is all after `fsk_<keyId>_`: it may hold `_` itself (base64url).
    const secret = apiKey.slice(`fsk_${created.body.keyId}_`.length);
    expect(secret.length).toBeGreaterThan(20);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    // The admin CLI's key is listed too.
    expect((listed.body.apiKeys as ApiKeyRow[]).length).toBe(2);

    const revoked = await asMember(cookie, 'DELETE', `/v1/team/api-keys/${created.body.keyId}`);
    expect(revoked.status).toBe(200);
    expect((await api('GET', '/v1/forms', { key: apiKey })).status).toBe(401);
    const after = await asMember(cookie, 'GET', '/v1/team/api-keys');
    expect(
      (after.body.apiKeys as ApiKeyRow[]).find((k) => k.keyId === created.body.keyId)?.revokedAt,
    ).toEqual(expect.any(String));
  });

  it("another team's key cannot be revoked: 404", async () => {
    const one = await teamWithOwner();
    const other = await teamWithOwner();
    const created = await api('POST', '/v1/team/api-keys', { key: other.apiKey, body: {} });
    const response = await api('DELETE', `/v1/team/api-keys/${created.body.keyId}`, {
      key: one.apiKey,
    });
    expect(response.status).toBe(404);
    expect((await api('GET', '/v1/forms', { key: created.body.apiKey as string })).status).toBe(
      200,
    );
  });
});

describe('the audit trail', () => {
  it('records sign-ins, failed codes, members, keys, form and submission deletes and secret rotations', async () => {
    const owner = await teamWithOwner();
    const { code } = await requestSignIn(owner.email);
    await verify({ email: owner.email, code: code === '111111' ? '222222' : '111111' });
    const cookie = cookieOf(await verify({ email: owner.email, code }));
    const member = await asMember(cookie, 'POST', '/v1/team/members', {
      body: { email: `audited-${crypto.randomUUID().slice(0, 8)}@example.com` },
    });
    await asMember(cookie, 'DELETE', `/v1/team/members/${member.body.userId}`);
    const key = await asMember(cookie, 'POST', '/v1/team/api-keys', { body: { name: 'tmp' } });
    await asMember(cookie, 'DELETE', `/v1/team/api-keys/${key.body.keyId}`);
    const form = await asMember(cookie, 'POST', '/v1/forms', { body: { name: 'Audited' } });
    await api('PUT', `/v1/forms/${form.body.id}/webhook`, {
      key: owner.apiKey,
      body: { url: 'https://hooks.example.com/x' },
    });
    await api('POST', `/v1/forms/${form.body.id}/webhook/rotate-secret`, { key: owner.apiKey });
    await api('POST', `/v1/forms/${form.body.id}/test-submissions`, { key: owner.apiKey });
    await asMember(cookie, 'DELETE', `/v1/forms/${form.body.id}/submissions`, {
      body: { target: { filter: 'all', asOf: new Date(Date.now() + 1000).toISOString() } },
    });
    await asMember(cookie, 'DELETE', `/v1/forms/${form.body.id}`);

    // A failed code is recorded by the sign-in worker, out of the verify route.
    const trail = await eventually(
      () => asMember(cookie, 'GET', '/v1/team/audit?limit=100'),
      (read) =>
        (read.body.events as { action: string }[]).some((e) => e.action === 'auth.code_failed'),
    );
    expect(trail.status).toBe(200);
    const actions = (trail.body.events as { action: string }[]).map((e) => e.action).reverse();
    expect(actions).toEqual([
      'auth.code_failed',
      'auth.signed_in',
      'member.invited',
      'member.removed',
      'api_key.created',
      'api_key.revoked',
      'form.created',
      'webhook.connected',
      'webhook.secret_rotated',
      'form.test_submitted',
      'submissions.deleted',
      'form.deleted',
    ]);
    const signIn = (trail.body.events as AuditRow[]).find((e) => e.action === 'auth.signed_in');
    expect(signIn).toMatchObject({
      actor: { kind: 'member', email: owner.email },
      ip: expect.any(String),
      at: expect.any(String),
    });
    const rotated = (trail.body.events as AuditRow[]).find(
      (e) => e.action === 'webhook.secret_rotated',
    );
    expect(rotated?.actor).toMatchObject({ kind: 'apiKey', keyId: expect.any(String) });

    const page = await asMember(cookie, 'GET', '/v1/team/audit?limit=4');
    expect(page.body.events).toHaveLength(4);
    const rest = await asMember(cookie, 'GET', `/v1/team/audit?limit=100&cursor=${page.body.next}`);
    expect(rest.body.events).toHaveLength(actions.length - 4);
    expect(rest.body.next).toBeNull();
  });
});
