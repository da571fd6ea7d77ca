import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { keyIdOf } from '#domain/api-keys.ts';
import { asMember, signedIn, teamWithOwner } from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { localStore } from '#test/support/store.ts';

vi.setConfig({ testTimeout: 60_000 });

/**
 * Teams and keys made before members and key listings existed (the table
 * as a deployment had it): they need no migration step.
 */
async function asBeforeMembers(team: {
  teamId: string;
  userId: string;
  email: string;
  apiKey: string;
}) {
  const { documents } = await localStore();
  const table = stack().tableName;
  const keyId = keyIdOf(team.apiKey)!;
  await documents.send(
    new UpdateCommand({
      TableName: table,
      Key: { pk: `TEAM#${team.teamId}`, sk: 'TEAM' },
      UpdateExpression: 'REMOVE membersSince, ownerCount',
    }),
  );
  await documents.send(
    new UpdateCommand({
      TableName: table,
      Key: { pk: `APIKEY#${keyId}`, sk: 'APIKEY' },
      UpdateExpression: 'REMOVE listed, lastUsedOn, createdByEmail',
    }),
  );
  for (const Key of [
    { pk: `TEAM#${team.teamId}`, sk: `MEMBER#${team.userId}` },
    { pk: `MEMBERSHIP#${team.email}`, sk: `TEAM#${team.teamId}` },
    { pk: `TEAM#${team.teamId}`, sk: `APIKEY#${keyId}` },
  ]) {
    await documents.send(new DeleteCommand({ TableName: table, Key }));
  }
  return keyId;
}

describe('a team from before members', () => {
  it('gets its owner as a member on its first request, who can then sign in; its key is listed', async () => {
    const team = await teamWithOwner();
    const keyId = await asBeforeMembers(team);
    const listedBefore = await api('GET', '/v1/team/members', { key: team.apiKey });
    expect(listedBefore.status).toBe(200);
    expect(listedBefore.body.members).toMatchObject([
      { userId: team.userId, email: team.email, role: 'owner' },
    ]);
    const keys = await api('GET', '/v1/team/api-keys', { key: team.apiKey });
    expect(keys.body.apiKeys).toMatchObject([
      { keyId, lastUsedOn: new Date().toISOString().slice(0, 10), revokedAt: null },
    ]);

    const cookie = await signedIn(team.email);
    const session = await asMember(cookie, 'GET', '/v1/auth/session');
    expect(session.body).toMatchObject({ role: 'owner', user: { userId: team.userId } });
    // The owner count came with it: the only owner stays.
    const demote = await asMember(cookie, 'PATCH', `/v1/team/members/${team.userId}`, {
      body: { role: 'member' },
    });
    expect(demote.status).toBe(409);
  });

  it('many first requests at once make one owner member', async () => {
    const team = await teamWithOwner();
    await asBeforeMembers(team);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => api('GET', '/v1/forms', { key: team.apiKey })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const members = await api('GET', '/v1/team/members', { key: team.apiKey });
    expect(members.body.members).toHaveLength(1);
    const teamView = await api('GET', '/v1/team', { key: team.apiKey });
    expect(teamView.body.memberCount).toBe(1);
  });
});
