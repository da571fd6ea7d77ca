import type { Member, TeamView } from './model.ts';

/** What the team screen says of its members and plan, apart from the screen so it is unit-tested. */

/** Invited and never signed in: their invitation may be sent again (docs/people.md#invitations). */
export const isPending = (member: Pick<Member, 'lastSignInAt'>) => member.lastSignInAt === null;

export function pendingInvitesWords(members: readonly Pick<Member, 'lastSignInAt'>[]): string {
  const pending = members.filter(isPending).length;
  if (pending === 0) return '';
  return pending === 1 ? '1 invite pending' : `${pending} invites pending`;
}

/**
 * The team's only owner can be neither removed nor made a member (the API
 * answers 409 `last_owner`: docs/people.md#people-and-sign-in), so the screen
 * offers neither.
 */
export function isSoleOwner(
  member: Pick<Member, 'role'>,
  members: readonly Pick<Member, 'role'>[],
) {
  return member.role === 'owner' && members.filter((each) => each.role === 'owner').length === 1;
}

export const roleWords = (role: Member['role']) => (role === 'owner' ? 'Owner' : 'Member');

export const planWords = (plan: TeamView['plan']) => (plan === 'pro' ? 'Pro plan' : 'Free plan');

/** "Ana Lopez, ana@example.com", or the address alone when the member has no name. */
export const memberWords = (member: Pick<Member, 'name' | 'email'>) =>
  member.name ? `${member.name}, ${member.email}` : member.email;

/** "Pro plan · 3 members · 2 invites pending · 4 of 3 forms" */
export function teamSummary(team: TeamView, members?: readonly Member[]): string {
  // The members as listed are newer than the team's count after an invite or a removal.
  const count = members?.length ?? team.memberCount;
  const parts = [
    planWords(team.plan),
    `${count} ${count === 1 ? 'member' : 'members'}`,
    members ? pendingInvitesWords(members) : '',
    `${team.formCount}${team.formLimit === null ? '' : ` of ${team.formLimit}`} ${team.formCount === 1 && team.formLimit === null ? 'form' : 'forms'}`,
  ];
  return parts.filter(Boolean).join(' · ');
}
