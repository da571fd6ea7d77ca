import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type Route, routes } from '#routes';
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

vi.setConfig({ testTimeout: 90_000, hookTimeout: 120_000 });

/**
 * The auth matrix of issue 23: every management route, called with a
 * session cookie in each state a cookie can be in. Routes that take a
 * caller are the ones this covers (auth `apiKey`: a key or a session).
 */
const managementRoutes = routes.filter((route) => route.auth === 'apiKey');
const OWNER_ONLY = new Set([
  'listMembers',
  'inviteMember',
  'resendInvitation',
  'updateMember',
  'removeMember',
  'listApiKeys',
  'createApiKey',
  'revokeApiKey',
  'listAuditEvents',
  'erasePersonSubmissions',
  'exportPersonSubmissions',
  'listSuppressions',
  'liftSuppression',
]);

interface World {
  formId: string;
  submissionId: string;
  memberUserId: string;
  keyId: string;
  owner: string;
  member: string;
  removed: string;
  signedOut: string;
  expired: string;
  forged: string;
  otherTeamOwner: string;
}
let world: World;

/** A request a route takes, with this world's ids in its path. */
function requestOf(route: Route) {
  const path = route.path
    .replace('{id}', world.formId)
    .replace('{submissionId}', world.submissionId)
    .replace('{index}', '0')
    .replace('{deliveryId}', world.submissionId)
    .replace('{userId}', world.memberUserId)
    .replace('{keyId}', world.keyId)
    .replace('{kind}', 'slack');
  return { method: route.method, path };
}

function call(cookie: string | null, route: Route) {
  const { method, path } = requestOf(route);
  if (cookie === null) return api(method, path, { key: null });
  return asMember(cookie, method, path);
}

/** A session's id: the hash of its cookie's secret. */
const sessionIdOf = (cookie: string) =>
  createHash('sha256').update(cookie.split('.')[2]!).digest('hex');

beforeAll(async () => {
  const team = await teamWithOwner();
  const other = await teamWithOwner();
  const owner = await signedIn(team.email);
  const form = await api('POST', '/v1/forms', { key: team.apiKey, body: { name: 'Matrix' } });
  const test = await api('POST', `/v1/forms/${form.body.id}/test-submissions`, {
    key: team.apiKey,
  });
  const key = await api('POST', '/v1/team/api-keys', { key: team.apiKey, body: { name: 'm' } });

  const invite = async (email: string) => {
    const invited = await api('POST', '/v1/team/members', { key: team.apiKey, body: { email } });
    const { token } = await invitationTo(email);
    return {
      userId: invited.body.userId as string,
      cookie: cookieOf(await verify({ token })),
    };
  };
  const member = await invite(`m-${crypto.randomUUID().slice(0, 8)}@example.com`);
  const removed = await invite(`r-${crypto.randomUUID().slice(0, 8)}@example.com`);
  await api('DELETE', `/v1/team/members/${removed.userId}`, { key: team.apiKey });

  const signedOut = await signedIn(team.email);
  await asMember(signedOut, 'POST', '/v1/auth/sign-out');

  // A session unused for 8 days: past its 7-day idle end, as time passing would leave it.
  const expired = await signedIn(team.email);
  const { documents } = await localStore();
  const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000).toISOString();
  await documents.send(
    new UpdateCommand({
      TableName: stack().tableName,
      Key: { pk: `TEAM#${team.teamId}`, sk: `SESSION#${team.userId}#${sessionIdOf(expired)}` },
      UpdateExpression: 'SET lastSeenAt = :at',
      ExpressionAttributeValues: { ':at': eightDaysAgo },
    }),
  );

  world = {
    formId: form.body.id as string,
    submissionId: test.body.submissionId as string,
    memberUserId: member.userId,
    keyId: key.body.keyId as string,
    owner,
    member: member.cookie,
    removed: removed.cookie,
    signedOut,
    expired,
    // The owner's ids with a secret nobody issued.
    forged: `${team.teamId}.${team.userId}.${'A'.repeat(43)}`,
    otherTeamOwner: await signedIn(other.email),
  };
});

describe('every management route refuses a session that is not one', () => {
  it.each([
    ['no cookie', () => null],
    ['a forged cookie', () => `fs_session=${world.forged}`],
    ['a malformed cookie', () => 'fs_session=../../etc/passwd'],
    ['an expired session (unused 8 days)', () => world.expired],
    ['a signed-out session', () => world.signedOut],
    ['a removed member’s session', () => world.removed],
  ])('%s: 401 unauthorized on each of them', async (_state, cookieFor) => {
    const cookie = cookieFor();
    const answers = await Promise.all(
      managementRoutes.map(async (route) => {
        const response = await call(cookie, route);
        return `${route.name} ${response.status} ${response.body?.error}`;
      }),
    );
    expect(answers).toEqual(managementRoutes.map((route) => `${route.name} 401 unauthorized`));
  });
});

describe('a session works inside its own team only', () => {
  it("another team's owner gets 404 on every route of this team's form", async () => {
    const formRoutes = managementRoutes.filter((route) => route.path.includes('{id}'));
    const answers = await Promise.all(
      formRoutes.map(async (route) => {
        const response = await call(world.otherTeamOwner, route);
        return `${route.name} ${response.status}`;
      }),
    );
    expect(answers).toEqual(formRoutes.map((route) => `${route.name} 404`));
  });

  it('a member gets 403 owner_only on the owner-only routes, and no 401 or 403 elsewhere', async () => {
    const answers = await Promise.all(
      managementRoutes
        .filter((route) => route.method === 'GET' || OWNER_ONLY.has(route.name))
        .map(async (route) => {
          const response = await call(world.member, route);
          const refused = response.status === 401 || response.status === 403;
          return `${route.name} ${OWNER_ONLY.has(route.name) ? `${response.status} ${response.body?.error}` : refused ? response.status : 'allowed'}`;
        }),
    );
    for (const answer of answers) {
      const [name] = answer.split(' ');
      expect(answer).toBe(OWNER_ONLY.has(name!) ? `${name} 403 owner_only` : `${name} allowed`);
    }
  });

  it('the owner is allowed on the owner-only reads', async () => {
    for (const name of ['listMembers', 'listApiKeys', 'listAuditEvents']) {
      const route = managementRoutes.find((r) => r.name === name)!;
      expect((await call(world.owner, route)).status, name).toBe(200);
    }
  });
});
