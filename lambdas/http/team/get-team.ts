import { config } from '#config';
import { monthlyAllowance, nearLimitFrom, usageMonth } from '#domain/submit-rules.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { countMembers } from '#store/members.ts';
import { monthlyUsage } from '#store/usage.ts';

/**
 * `GET /v1/team`: the team, its plan, this month's usage against the same
 * allowance the submit path enforces, and its counts.
 */
export const contract = defineContract({
  tag: 'Team',
  answers: [{ status: 200, description: 'The team.', body: 'TeamView' }],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller }) => {
  const { team } = caller;
  const month = usageMonth(new Date());
  const allowance = monthlyAllowance(team, {
    free: config.freeMonthlySubmissions,
    pro: config.proMonthlySubmissions,
  });
  const [used, memberCount] = await Promise.all([
    monthlyUsage(team.teamId, month),
    countMembers(team.teamId),
  ]);
  return json(200, {
    teamId: team.teamId,
    name: team.name,
    plan: team.plan,
    usage: { month, submissions: used, allowance, nearLimitFrom: nearLimitFrom(allowance) },
    memberCount,
    formCount: team.formCount,
    formLimit: team.plan === 'free' ? config.freeFormLimit : null,
  });
});
