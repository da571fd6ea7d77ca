import { toMemberView } from '#domain/members.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { listMembers } from '#store/members.ts';
import { requireOwner } from './require-owner.ts';

/** `GET /v1/team/members` (owners): every member, oldest first. */
export const contract = defineContract({
  tag: 'Team',
  answers: [{ status: 200, description: 'The members.', body: 'MemberList' }],
  errors: ['owner_only'],
});

export const handler = managementRoute(contract, async ({ caller }) => {
  requireOwner(caller);
  const members = await listMembers(caller.team.teamId);
  members.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return json(200, { members: members.map(toMemberView) });
});
