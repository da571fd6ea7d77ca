import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import {
  asMember,
  cookieOf,
  invitationTo,
  signedIn,
  teamWithOwner,
  verify,
} from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { localStore } from '#test/support/store.ts';

// Sign-in emails travel the local queue and SES emulator, shared with the whole suite.
vi.setConfig({ testTimeout: 90_000 });

type ApiKeyRow = { keyId: string; revokedAt: string | null };
type AuditRow = { action: string; target: string | null; details: Record<string, unknown> };

/** A team whose owner is signed in, and a second member (an owner unless told) signed in too. */
async function teamWithSecondMember(role: 'owner' | 'member' = 'owner') {
  const owner = await teamWithOwner();
  const ownerCookie = await signedIn(owner.email);
  const email = `second-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const invited = await asMember(ownerCookie, 'POST', '/v1/team/members', {
    body: { email, role },
  });
  expect(invited.status, invited.text).toBe(201);
  // The invitation's link signs the new member in (docs/people.md#invitations).
  const { token } = await invitationTo(email);
  const cookie = cookieOf(await verify({ token }));
  return { owner, ownerCookie, second: { userId: invited.body.userId as string, email, cookie } };
}

/** An API key the signed-in member behind `cookie` creates. */
async function keyOf(cookie: string, name = 'theirs') {
  const created = await asMember(cookie, 'POST', '/v1/team/api-keys', { body: { name } });
  expect(created.status, created.text).toBe(201);
  return { keyId: created.body.keyId as string, apiKey: created.body.apiKey as string };
}

async function auditOf(cookie: string): Promise<AuditRow[]> {
  const trail = await asMember(cookie, 'GET', '/v1/team/audit?limit=100');
  expect(trail.status, trail.text).toBe(200);
  return trail.body.events as AuditRow[];
}

/** Writes to the member item directly, as a step that failed half-way would leave it. */
async function memberItem(teamId: string, userId: string) {
  const { documents } = await localStore();
  const Key = { pk: `TEAM#${teamId}`, sk: `MEMBER#${userId}` };
  const TableName = stack().tableName;
  return {
    remove: () => documents.send(new DeleteCommand({ TableName, Key })),
    setRole: (role: string) =>
      documents.send(
        new UpdateCommand({
          TableName,
          Key,
          UpdateExpression: 'SET #role = :role',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':role': role },
        }),
      ),
  };
}

describe('an API key acts with its creator’s current membership', () => {
  it('a removed owner’s keys stop at once: 401 everywhere, listed revoked, audited member_removed', async () => {
    const { owner, ownerCookie, second } = await teamWithSecondMember('owner');
    const key = await keyOf(second.cookie);
    expect((await api('GET', '/v1/team/members', { key: key.apiKey })).status).toBe(200);

    const removed = await asMember(ownerCookie, 'DELETE', `/v1/team/members/${second.userId}`);
    expect(removed.status, removed.text).toBe(200);

    const members = await api('GET', '/v1/team/members', { key: key.apiKey });
    expect(members.status, 'a removed owner’s key lists members').toBe(401);
    expect((await api('POST', '/v1/team/api-keys', { key: key.apiKey, body: {} })).status).toBe(
      401,
    );
    const invite = await api('POST', '/v1/team/members', {
      key: key.apiKey,
      body: { email: `late-${crypto.randomUUID().slice(0, 8)}@example.com`, role: 'owner' },
    });
    expect(invite.status, 'a removed owner’s key invites an owner').toBe(401);
    expect((await api('GET', '/v1/forms', { key: key.apiKey })).status).toBe(401);

    const listed = await asMember(ownerCookie, 'GET', '/v1/team/api-keys');
    const row = (listed.body.apiKeys as ApiKeyRow[]).find((k) => k.keyId === key.keyId);
    expect(row?.revokedAt, 'the key is listed revoked').toEqual(expect.any(String));
    const revoked = (await auditOf(ownerCookie)).find(
      (e) => e.action === 'api_key.revoked' && e.target === key.keyId,
    );
    expect(revoked?.details).toMatchObject({ reason: 'member_removed', name: 'theirs' });
    // The operator's key of the team (admin CLI) is nobody's member key: it still works.
    expect((await api('GET', '/v1/team/members', { key: owner.apiKey })).status).toBe(200);
  });

  it('a demoted owner’s key acts as a member: owner-only routes 403 owner_only, member routes work, no new keys', async () => {
    const { ownerCookie, second } = await teamWithSecondMember('owner');
    const key = await keyOf(second.cookie);
    const demoted = await asMember(ownerCookie, 'PATCH', `/v1/team/members/${second.userId}`, {
      body: { role: 'member' },
    });
    expect(demoted.status, demoted.text).toBe(200);

    for (const [method, path, body] of [
      ['GET', '/v1/team/members', undefined],
      ['GET', '/v1/team/api-keys', undefined],
      ['GET', '/v1/team/audit', undefined],
      ['POST', '/v1/team/api-keys', {}],
      ['POST', '/v1/team/members', { email: 'x@example.com', role: 'owner' }],
    ] as const) {
      const response = await api(method, path, { key: key.apiKey, body });
      expect(response.status, `${method} ${path} with a demoted owner's key`).toBe(403);
      expect(response.body).toMatchObject({ error: 'owner_only' });
    }
    const form = await api('POST', '/v1/forms', { key: key.apiKey, body: { name: 'Still works' } });
    expect(form.status, form.text).toBe(201);
    expect(form.body.userId).toBe(second.userId);
    expect((await api('GET', `/v1/forms/${form.body.id}`, { key: key.apiKey })).status).toBe(200);
    const me = await api('GET', '/v1/auth/session', { key: key.apiKey });
    expect(me.body).toMatchObject({ via: 'apiKey', role: 'member' });

    // Made owner again, the same key manages the team again.
    await asMember(ownerCookie, 'PATCH', `/v1/team/members/${second.userId}`, {
      body: { role: 'owner' },
    });
    expect((await api('GET', '/v1/team/members', { key: key.apiKey })).status).toBe(200);
  });

  it('a current owner’s key creates keys that act with the same member', async () => {
    const { second } = await teamWithSecondMember('owner');
    const key = await keyOf(second.cookie);
    const made = await api('POST', '/v1/team/api-keys', { key: key.apiKey, body: { name: 'k2' } });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ userId: second.userId, createdByEmail: second.email });
    expect((await api('GET', '/v1/team/members', { key: made.body.apiKey as string })).status).toBe(
      200,
    );
  });

  it('a key whose creator is gone without its keys revoked (member item deleted through the store) is refused and revoked on its next request', async () => {
    const { owner, ownerCookie, second } = await teamWithSecondMember('owner');
    const key = await keyOf(second.cookie);
    await (await memberItem(owner.teamId, second.userId)).remove();

    const response = await api('GET', '/v1/team/members', { key: key.apiKey });
    expect(response.status, 'a key of a member who is gone').toBe(401);
    const listed = await asMember(ownerCookie, 'GET', '/v1/team/api-keys');
    const row = (listed.body.apiKeys as ApiKeyRow[]).find((k) => k.keyId === key.keyId);
    expect(row?.revokedAt).toEqual(expect.any(String));
    const revoked = (await auditOf(ownerCookie)).filter(
      (e) => e.action === 'api_key.revoked' && e.target === key.keyId,
    );
    expect(revoked).toHaveLength(1);
    expect(revoked[0]?.details).toMatchObject({ reason: 'member_removed' });
  });
});

describe('a session never outlives its member', () => {
  it('when the sweep after a removal never ran (member item deleted through the store), the session is refused', async () => {
    const { owner, second } = await teamWithSecondMember('member');
    expect((await asMember(second.cookie, 'GET', '/v1/forms')).status).toBe(200);
    await (await memberItem(owner.teamId, second.userId)).remove();
    const after = await asMember(second.cookie, 'GET', '/v1/forms');
    expect(after.status, 'a session whose member is gone').toBe(401);
  });

  it('when the role rewrite after a demotion never ran (role changed through the store), the session acts with the new role', async () => {
    const { owner, second } = await teamWithSecondMember('owner');
    expect((await asMember(second.cookie, 'GET', '/v1/team/members')).status).toBe(200);
    await (await memberItem(owner.teamId, second.userId)).setRole('member');
    const after = await asMember(second.cookie, 'GET', '/v1/team/members');
    expect(after.status, 'a demoted member’s session on an owner-only route').toBe(403);
    expect(after.body).toMatchObject({ error: 'owner_only' });
  });
});

describe('what an authenticated request costs', () => {
  it('a member’s key: the key, then its team and creator in one consistent BatchGet beside the rate window; a session: one BatchGet of session, team and member', async () => {
    const { second } = await teamWithSecondMember('owner');
    const key = await keyOf(second.cookie);
    // The day's first request notes the key's use; the figures are of the ones after.
    expect((await api('GET', '/v1/forms', { key: key.apiKey })).status).toBe(200);
    await localStore();
    const { dynamodb } = await import('#store/client.ts');
    const { meterDynamoDb } = await import('#test/support/dynamodb-meter.ts');
    const { callerAuth } = await import('#http/middleware/caller-auth.ts');
    const { meter, reset } = meterDynamoDb(dynamodb);
    const authenticate = async (headers: Record<string, string>) => {
      reset();
      const request = {
        event: { httpMethod: 'GET', headers, requestContext: {} },
        context: {},
      } as unknown as Parameters<NonNullable<ReturnType<typeof callerAuth>['before']>>[0];
      await callerAuth().before?.(request);
      return {
        ...meter,
        caller: (request.context as unknown as { caller: { role: string } }).caller,
      };
    };

    const byKey = await authenticate({ authorization: `Bearer ${key.apiKey}` });
    expect(byKey.caller.role).toBe('owner');
    expect(byKey.rounds).toBe(2);
    expect([...byKey.calls].sort()).toEqual([
      'BatchGetItemCommand',
      'GetItemCommand',
      'UpdateItemCommand',
    ]);
    // The key 1 RCU, team and member 2 RCU (consistent), the rate window 1 WCU.
    expect(byKey.readCapacity).toBe(3);
    expect(byKey.writeCapacity).toBe(1);

    const bySession = await authenticate({ cookie: second.cookie });
    expect(bySession.rounds).toBe(2);
    // Session, team and member 3 RCU (consistent), the rate window 1 WCU.
    expect(bySession.readCapacity).toBe(3);
    expect(bySession.writeCapacity).toBe(1);
  });
});
