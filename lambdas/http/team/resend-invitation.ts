import { notFound } from '#domain/errors.ts';
import { invitationAccepted, toMemberView } from '#domain/members.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getMember } from '#store/members.ts';
import { admitInvitation, queueInvitation } from './invitation-email.ts';
import { requireOwner } from './require-owner.ts';

/**
 * `POST /v1/team/members/{userId}/invitation` (owners): sends a member who
 * has never signed in their invitation again, a new email with a fresh link
 * and code through the invite's own path (the earlier link keeps working
 * until it ends); 409 `invitation_accepted` once they have signed in. It
 * counts toward the address's sign-in emails like the invite
 * (docs/people.md#invitations).
 */
export const contract = defineContract({
  tag: 'Team',
  answers: [
    {
      status: 202,
      description: 'The invited member; a new sign-in email is on its way.',
      body: 'Member',
    },
  ],
  errors: ['owner_only', 'invitation_accepted'],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters, event }) => {
  requireOwner(caller);
  const member = await getMember(caller.team.teamId, pathParameters.userId ?? '');
  if (!member) throw notFound('Member');
  if (member.lastSignInAt !== null) throw invitationAccepted();
  const now = new Date();
  await admitInvitation(member.email, event, now);
  await queueInvitation(member.email, now, caller);
  await auditByCaller(caller, event, 'member.invitation_resent', member.userId, {
    email: member.email,
    role: member.role,
  });
  return json(202, toMemberView(member));
});
