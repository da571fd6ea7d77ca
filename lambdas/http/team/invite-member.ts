import { randomUUID } from 'node:crypto';
import { inviteMemberInput } from '#domain/member-input.ts';
import { type Member, toMemberView } from '#domain/members.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { addMember } from '#store/members.ts';
import { admitInvitation, queueInvitation } from './invitation-email.ts';
import { requireOwner } from './require-owner.ts';

/**
 * `POST /v1/team/members { email, name?, role? }` (owners): adds the member
 * and sends them an invitation (who invited them to which team, a link
 * valid 7 days: docs/people.md#invitations); 409 `already_member`. The email counts
 * toward the address's sign-in emails like any other: over them, 429 and
 * nobody is added, so inviting and removing again and again sends no more
 * mail (docs/people.md#sign-in-bounds).
 */
export const contract = defineContract({
  tag: 'Team',
  body: inviteMemberInput,
  answers: [
    {
      status: 201,
      description: 'The new member; an invitation with a link valid 7 days is on its way.',
      body: 'Member',
    },
  ],
  errors: ['owner_only', 'already_member'],
});

export const handler = managementRoute(contract, async ({ caller, input, event }) => {
  requireOwner(caller);
  const request = input.body();
  const now = new Date();
  await admitInvitation(request.email, event, now);
  const member: Member = {
    userId: randomUUID(),
    teamId: caller.team.teamId,
    email: request.email,
    name: request.name,
    role: request.role,
    createdAt: now.toISOString(),
    lastSignInAt: null,
  };
  await addMember(member);
  await queueInvitation(member.email, now, caller);
  await auditByCaller(caller, event, 'member.invited', member.userId, {
    email: member.email,
    role: member.role,
  });
  return json(201, toMemberView(member));
});
