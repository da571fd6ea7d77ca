import type { Member } from '#domain/members.ts';
import { type Session, sessionExpiresAt } from '#domain/sessions.ts';
import type { Team } from '#domain/team.ts';
import { batchWriteAll } from './batches.ts';
import { readCallerContext } from './caller-context.ts';
import { memberKey, sessionKey, sessionPrefix, stripPlumbing, teamKey } from './keys.ts';
import { updateIf } from './retries.ts';
import { itemsWithPrefix } from './table.ts';
import { transactUnlessRefused } from './transactions.ts';

/**
 * Sessions, each in its team's partition under its member, with a TTL at
 * the time it would end unused (DynamoDB deletes expired items within days,
 * so reads check the time themselves).
 */

const ttlOf = (session: Pick<Session, 'createdAt' | 'lastSeenAt'>) =>
  Math.ceil(sessionExpiresAt(session).getTime() / 1000);

/**
 * Stores a new session, only while its member is still there with the role
 * it was read with: false when the member was removed or changed meanwhile.
 * (Each request also reads the member, so a session never outlives it.)
 */
export async function putSession(session: Session): Promise<boolean> {
  const refused = await transactUnlessRefused([
    {
      Put: {
        Item: {
          ...sessionKey(session.teamId, session.userId, session.sessionId),
          entity: 'session',
          ...session,
          expiresAt: ttlOf(session),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      ConditionCheck: {
        Key: memberKey(session.teamId, session.userId),
        ConditionExpression: '#role = :role',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':role': session.role },
      },
    },
  ]);
  return refused === undefined;
}

/**
 * What a session cookie stands for, read in one consistent BatchGet: the
 * session, its team and its member as they stand now (any may be gone). A
 * session acts with its member's current role, and not at all once the
 * member is gone, whether or not the sweep after a removal ran.
 */
export async function readSessionContext(ids: {
  teamId: string;
  userId: string;
  sessionId: string;
}): Promise<{ session?: Session; team?: Team; member?: Member }> {
  const { team, member, entity } = await readCallerContext(ids.teamId, ids.userId, [
    sessionKey(ids.teamId, ids.userId, ids.sessionId),
  ]);
  return { session: entity<Session>('session'), team, member };
}

/** Slides the session forward; nothing when it was ended meanwhile. */
export async function touchSession(session: Session, now: Date): Promise<void> {
  const lastSeenAt = now.toISOString();
  await updateIf({
    Key: sessionKey(session.teamId, session.userId, session.sessionId),
    UpdateExpression: 'SET lastSeenAt = :at, expiresAt = :ttl',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':at': lastSeenAt, ':ttl': ttlOf({ ...session, lastSeenAt }) },
  });
}

async function sessionsOf(teamId: string, userId: string): Promise<Session[]> {
  const items = await itemsWithPrefix(teamKey(teamId).pk, sessionPrefix(userId), {
    consistent: true,
  });
  return items.map((item) => stripPlumbing<Session>(item));
}

/** A member's sessions that have not ended, newest first. */
export async function listSessions(teamId: string, userId: string, now: Date): Promise<Session[]> {
  return (await sessionsOf(teamId, userId))
    .filter((session) => sessionExpiresAt(session).getTime() > now.getTime())
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Ends one session; false when it had ended already. */
export async function deleteSession(ids: {
  teamId: string;
  userId: string;
  sessionId: string;
}): Promise<boolean> {
  const refused = await transactUnlessRefused([
    {
      Delete: {
        Key: sessionKey(ids.teamId, ids.userId, ids.sessionId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
  ]);
  return refused === undefined;
}

/** BatchWrite takes 25 requests at a time. */
const BATCH_WRITES = 25;

/** Ends every session of a member but `keep`; how many ended. */
export async function deleteSessionsOf(
  teamId: string,
  userId: string,
  keep?: string,
): Promise<number> {
  const ending = (await sessionsOf(teamId, userId)).filter((s) => s.sessionId !== keep);
  for (let at = 0; at < ending.length; at += BATCH_WRITES) {
    await batchWriteAll(
      ending.slice(at, at + BATCH_WRITES).map((session) => ({
        DeleteRequest: { Key: sessionKey(teamId, userId, session.sessionId) },
      })),
    );
  }
  return ending.length;
}
