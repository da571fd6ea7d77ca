import { notFound } from '#domain/errors.ts';
import { toMemberView } from '#domain/members.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getMember, getTeams, membersOfAddress } from '#store/members.ts';

/**
 * `GET /v1/auth/session`: who is asking (the member, or the API key's
 * creator), in which team with which role, and the other teams a signed-in
 * address belongs to (`POST /v1/auth/session/team` moves there).
 */
export const contract = defineContract({
  tag: 'Sign-in',
  answers: [{ status: 200, description: 'Who is asking.', body: 'SessionView' }],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller }) => {
  // An operator's key has no member of its own: the team's original owner, if still one.
  const member = caller.member ?? (await getMember(caller.team.teamId, caller.userId));
  if (!member) throw notFound('Member');
  const members = caller.email ? await membersOfAddress(caller.email) : [member];
  const teams = await getTeams(members.map((m) => m.teamId));
  const nameOf = new Map(teams.map((team) => [team.teamId, team]));
  return json(200, {
    via: caller.via,
    user: toMemberView(member),
    role: caller.role,
    team: { teamId: caller.team.teamId, name: caller.team.name, plan: caller.team.plan },
    teams: members.flatMap((m) => {
      const team = nameOf.get(m.teamId);
      return team ? [{ teamId: m.teamId, name: team.name, plan: team.plan, role: m.role }] : [];
    }),
  });
});
