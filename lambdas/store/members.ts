import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { alreadyMember, lastOwner, type Member, memberEmail, type Role } from '#domain/members.ts';
import type { Team } from '#domain/team.ts';
import { liveKeysOf, revocationItems, revokeApiKey } from './api-key-listings.ts';
import type { ApiKeyListing } from './api-keys.ts';
import { batchGetAll } from './batches.ts';
import { documents } from './client.ts';
import {
  MEMBER_PREFIX,
  memberKey,
  membershipKey,
  membershipsOfEmail,
  stripPlumbing,
  teamKey,
} from './keys.ts';
import { updateIf } from './retries.ts';
import { deleteSessionsOf } from './sessions.ts';
import { getItem, itemsWithPrefix, type TableTransactItem } from './table.ts';
import { transactUnlessRefused } from './transactions.ts';

/**
 * Members of a team and the index of teams by address. The team item
 * counts its owners (`ownerCount`), so the last owner can never be removed
 * or made a member, whatever requests race. A team made before members
 * existed gets its owner as a member on its first authenticated request
 * (`ensureOwnerMember`; `membersSince` on the team says it happened).
 */

/** What making a team's owner a member needs of the team (teams.ts imports this module). */
interface TeamOwner {
  teamId: string;
  ownerUserId: string;
  ownerEmail: string;
  membersSince?: string;
}

export interface Membership {
  teamId: string;
  userId: string;
}

function memberItems(member: Member): TableTransactItem[] {
  return [
    {
      Put: {
        Item: { ...memberKey(member.teamId, member.userId), entity: 'member', ...member },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        Item: {
          ...membershipKey(member.email, member.teamId),
          entity: 'membership',
          teamId: member.teamId,
          userId: member.userId,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/** The items that make the team's owner (its `ownerUserId` and `ownerEmail`) a member. */
export function ownerMemberItems(team: TeamOwner, at: string): TableTransactItem[] {
  return memberItems({
    userId: team.ownerUserId,
    teamId: team.teamId,
    email: memberEmail(team.ownerEmail),
    name: '',
    role: 'owner',
    createdAt: at,
    lastSignInAt: null,
  });
}

/** The team's owner as its first member, with the count and the flag on the team item. */
function firstOwnerItems(team: TeamOwner, at: string): TableTransactItem[] {
  return [
    ...ownerMemberItems(team, at),
    {
      Update: {
        Key: teamKey(team.teamId),
        UpdateExpression: 'SET membersSince = :at, ownerCount = :one',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(membersSince)',
        ExpressionAttributeValues: { ':at': at, ':one': 1 },
      },
    },
  ];
}

/** Makes an older team's owner a member, once (a race with another request changes nothing). */
export async function ensureOwnerMember(team: TeamOwner, now: Date): Promise<void> {
  if (team.membersSince) return;
  await transactUnlessRefused(firstOwnerItems(team, now.toISOString()));
}

/** Adds a member; 409 `already_member` when the address is one already. */
export async function addMember(member: Member): Promise<void> {
  const items = memberItems(member);
  if (member.role === 'owner') items.push(ownerCountChange(member.teamId, 1));
  const refused = await transactUnlessRefused(items);
  if (refused) throw alreadyMember();
}

export async function getMember(teamId: string, userId: string): Promise<Member | undefined> {
  const item = await getItem(memberKey(teamId, userId), { consistent: true });
  return item ? stripPlumbing<Member>(item) : undefined;
}

export async function listMembers(teamId: string): Promise<Member[]> {
  const items = await itemsWithPrefix(teamKey(teamId).pk, MEMBER_PREFIX);
  return items.map((item) => stripPlumbing<Member>(item));
}

/** How many members the team has, read from the keys alone. */
export async function countMembers(teamId: string): Promise<number> {
  const { Count } = await documents.send(
    new QueryCommand({
      TableName: config.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': teamKey(teamId).pk, ':prefix': MEMBER_PREFIX },
      Select: 'COUNT',
    }),
  );
  return Count ?? 0;
}

/** Every team the address is a member of. */
export async function membershipsOf(email: string): Promise<Membership[]> {
  const items = await itemsWithPrefix(membershipsOfEmail(memberEmail(email)), 'TEAM#', {
    consistent: true,
  });
  return items.map((item) => ({ teamId: String(item.teamId), userId: String(item.userId) }));
}

/** The address's memberships as members (each team's member item), in no order. */
export async function membersOfAddress(email: string): Promise<Member[]> {
  const memberships = await membershipsOf(email);
  if (memberships.length === 0) return [];
  const items = await batchGetAll(
    memberships.map((m) => memberKey(m.teamId, m.userId)),
    { consistent: true },
  );
  return items.map((item) => stripPlumbing<Member>(item));
}

function ownerCountChange(teamId: string, delta: 1 | -1): TableTransactItem {
  return {
    Update: {
      Key: teamKey(teamId),
      UpdateExpression: 'ADD ownerCount :delta',
      // Taking an owner away needs another to stay.
      ConditionExpression: delta < 0 ? 'ownerCount > :one' : 'attribute_exists(pk)',
      ExpressionAttributeValues: delta < 0 ? { ':delta': -1, ':one': 1 } : { ':delta': 1 },
    },
  };
}

/** A transaction holds at most 100 writes; a removal keeps room for its own three. */
const KEYS_REVOKED_WITH_REMOVAL = 48;

/**
 * Removes a member, revokes the API keys they made and ends their sessions;
 * 409 `last_owner` for the last owner. Undefined when there was no such
 * member, else the keys revoked. The keys are revoked in the removal's own
 * transaction (all but a member's 49th key on, revoked right after), so no
 * failure leaves a removed member's key working; the auth middleware also
 * refuses any key or session whose member is gone
 * (docs/people.md#teams-members-keys-and-the-audit-trail).
 */
export async function removeMember(
  member: Member,
  now = new Date(),
): Promise<ApiKeyListing[] | undefined> {
  const keys = await liveKeysOf(member.teamId, member.userId);
  const inline = keys.slice(0, KEYS_REVOKED_WITH_REMOVAL);
  const at = now.toISOString();
  const items: TableTransactItem[] = [
    {
      Delete: {
        Key: memberKey(member.teamId, member.userId),
        ConditionExpression: '#role = :role',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':role': member.role },
      },
    },
    { Delete: { Key: membershipKey(member.email, member.teamId) } },
  ];
  if (member.role === 'owner') items.push(ownerCountChange(member.teamId, -1));
  for (const key of inline) items.push(...revocationItems(key, member.teamId, at));
  const refused = await transactUnlessRefused(items);
  if (refused?.includes(2) && member.role === 'owner') throw lastOwner();
  if (refused) return undefined;
  for (const key of keys.slice(KEYS_REVOKED_WITH_REMOVAL)) await revokeApiKey(key.keyId, now);
  // The member item is gone, so these sessions already fail; deleting them is tidiness.
  await deleteSessionsOf(member.teamId, member.userId);
  return keys;
}

/**
 * Changes a member's role and name; 409 `last_owner` when it would leave
 * the team without an owner. False when the member changed meanwhile. The
 * member's sessions and keys act with the new role from their next request.
 */
export async function updateMember(
  member: Member,
  change: { role?: Role; name?: string },
): Promise<boolean> {
  const role = change.role ?? member.role;
  const name = change.name ?? member.name;
  const items: TableTransactItem[] = [
    {
      Update: {
        Key: memberKey(member.teamId, member.userId),
        UpdateExpression: 'SET #role = :role, #name = :name',
        ConditionExpression: '#role = :was',
        ExpressionAttributeNames: { '#role': 'role', '#name': 'name' },
        ExpressionAttributeValues: { ':role': role, ':name': name, ':was': member.role },
      },
    },
  ];
  if (role !== member.role) items.push(ownerCountChange(member.teamId, role === 'owner' ? 1 : -1));
  const refused = await transactUnlessRefused(items);
  if (refused?.includes(1)) throw lastOwner();
  // Sessions and keys read the member's role on each request: nothing else to rewrite.
  return refused === undefined;
}

export async function recordSignIn(teamId: string, userId: string, now: Date): Promise<void> {
  await updateIf({
    Key: memberKey(teamId, userId),
    UpdateExpression: 'SET lastSignInAt = :now',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':now': now.toISOString() },
  });
}

/** The teams that exist of `teamIds`, in no order (an address's teams). */
export async function getTeams(teamIds: readonly string[]): Promise<Team[]> {
  const items = await batchGetAll(teamIds.map(teamKey));
  return items.map((item) => stripPlumbing<Team>(item));
}
