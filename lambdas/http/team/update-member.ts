import { notFound, ServiceError } from '#domain/errors.ts';
import { updateMemberInput } from '#domain/member-input.ts';
import { toMemberView } from '#domain/members.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getMember, updateMember } from '#store/members.ts';
import { requireOwner } from './require-owner.ts';

/**
 * `PATCH /v1/team/members/{userId} { role?, name? }` (owners): 409
 * `last_owner` when no owner would be left. The member's sessions take the
 * new role at once.
 */
export const contract = defineContract({
  tag: 'Team',
  body: updateMemberInput,
  answers: [{ status: 200, description: 'The member as saved.', body: 'Member' }],
  errors: ['owner_only', 'last_owner', 'conflict'],
});

export const handler = managementRoute(
  contract,
  async ({ caller, input, pathParameters, event }) => {
    requireOwner(caller);
    const member = await getMember(caller.team.teamId, pathParameters.userId ?? '');
    if (!member) throw notFound('Member');
    const change = input.body();
    if (!(await updateMember(member, change))) {
      throw new ServiceError('conflict', 'The member changed meanwhile; retry the request');
    }
    const updated = { ...member, ...change };
    await auditByCaller(caller, event, 'member.updated', member.userId, {
      email: member.email,
      role: updated.role,
      previousRole: member.role,
    });
    return json(200, toMemberView(updated));
  },
);
