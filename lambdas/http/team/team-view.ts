import { config } from '#config';
import { monthlyAllowance, nearLimitFrom, usageMonth } from '#domain/submit-rules.ts';
import type { Team } from '#domain/team.ts';
import { DEFAULT_IP_STORAGE } from '#domain/visitor-ip.ts';
import { countMembers } from '#store/members.ts';
import { monthlyUsage } from '#store/usage.ts';

/** The `TeamView` both team routes answer: this month's usage against the submit path's allowance. */
export async function teamView(team: Team) {
  const month = usageMonth(new Date());
  const allowance = monthlyAllowance(team, {
    free: config.freeMonthlySubmissions,
    pro: config.proMonthlySubmissions,
  });
  const [used, memberCount] = await Promise.all([
    monthlyUsage(team.teamId, month),
    countMembers(team.teamId),
  ]);
  return {
    teamId: team.teamId,
    name: team.name,
    plan: team.plan,
    usage: { month, submissions: used, allowance, nearLimitFrom: nearLimitFrom(allowance) },
    memberCount,
    formCount: team.formCount,
    formLimit: team.plan === 'free' ? config.freeFormLimit : null,
    ipStorage: team.ipStorage ?? DEFAULT_IP_STORAGE,
    emailPausedAt: team.emailPausedAt ?? null,
  };
}
