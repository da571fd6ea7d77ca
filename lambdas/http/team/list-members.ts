import { toMemberView } from '#domain/members.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { listMembers } from '#store/members.ts';
import { requireOwner } from './require-owner.ts';

/** `GET /v1/team/members` (owners): every member, oldest first. */
export const handler = managementRoute(async ({ caller }) => {
  requireOwner(caller);
  const members = await listMembers(caller.team.teamId);
  members.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return json(200, { members: members.map(toMemberView) });
});
