import { notFound } from '#domain/errors.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getMember, removeMember } from '#store/members.ts';
import { requireOwner } from './require-owner.ts';

/**
 * `DELETE /v1/team/members/{userId}` (owners): the member, every session
 * of theirs and every API key they made end at once; 409 `last_owner` for
 * the team's only owner.
 */
export const contract = defineContract({
  tag: 'Team',
  answers: [
    { status: 200, description: 'Removed; their sessions and API keys are over.', body: 'Ok' },
  ],
  errors: ['owner_only', 'last_owner'],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters, event }) => {
  requireOwner(caller);
  const member = await getMember(caller.team.teamId, pathParameters.userId ?? '');
  const revoked = member ? await removeMember(member) : undefined;
  if (!member || !revoked) throw notFound('Member');
  await auditByCaller(caller, event, 'member.removed', member.userId, {
    email: member.email,
    apiKeysRevoked: revoked.length,
  });
  for (const key of revoked) {
    await auditByCaller(caller, event, 'api_key.revoked', key.keyId, {
      name: key.name,
      reason: 'member_removed',
    });
  }
  return json(200, { ok: true });
});
