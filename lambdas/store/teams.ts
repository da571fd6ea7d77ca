import type { Plan, Team } from '#domain/team.ts';
import type { IpStorage } from '#domain/visitor-ip.ts';
import { childrenOf } from './by-parent.ts';
import { ALL_TEAMS, stripPlumbing, teamKey } from './keys.ts';
import { updateIf } from './retries.ts';
import { getItem } from './table.ts';

export type { Plan, Team } from '#domain/team.ts';

export async function getTeam(teamId: string): Promise<Team | undefined> {
  const item = await getItem(teamKey(teamId));
  return item ? stripPlumbing<Team>(item) : undefined;
}

/** Returns false when the team does not exist. */
export async function setTeamPlan(teamId: string, plan: Plan): Promise<boolean> {
  return updateIf({
    Key: teamKey(teamId),
    UpdateExpression: 'SET #plan = :plan',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#plan': 'plan' },
    ExpressionAttributeValues: { ':plan': plan },
  });
}

/** Sets (or with null removes) the team's own monthly allowance; false when there is no team. */
export async function setTeamAllowance(teamId: string, allowance: number | null): Promise<boolean> {
  return updateIf({
    Key: teamKey(teamId),
    UpdateExpression:
      allowance === null ? 'REMOVE monthlyAllowance' : 'SET monthlyAllowance = :allowance',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: allowance === null ? undefined : { ':allowance': allowance },
  });
}

export async function listTeams(): Promise<Team[]> {
  return childrenOf<Team>(ALL_TEAMS);
}

/** Sets what the team's submissions keep of a visitor's address; false when there is no team. */
export async function setTeamIpStorage(teamId: string, ipStorage: IpStorage): Promise<boolean> {
  return updateIf({
    Key: teamKey(teamId),
    UpdateExpression: 'SET ipStorage = :ipStorage',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':ipStorage': ipStorage },
  });
}

/** Records that the team's SES tenant is ready (its name), so no later email makes it again. */
export async function setTeamTenant(teamId: string, tenantName: string): Promise<boolean> {
  return updateIf({
    Key: teamKey(teamId),
    UpdateExpression: 'SET sesTenant = :tenant',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':tenant': tenantName },
  });
}

/**
 * Records whether SES holds the team's mail back (its tenant paused, at
 * `pausedAt`), or not (null, after a sent email): what GET /v1/team says.
 */
export async function setTeamEmailPaused(
  teamId: string,
  pausedAt: string | null,
): Promise<boolean> {
  return updateIf({
    Key: teamKey(teamId),
    UpdateExpression: pausedAt ? 'SET emailPausedAt = :at' : 'REMOVE emailPausedAt',
    ConditionExpression: pausedAt
      ? 'attribute_exists(pk)'
      : 'attribute_exists(pk) AND attribute_exists(emailPausedAt)',
    ExpressionAttributeValues: pausedAt ? { ':at': pausedAt } : undefined,
  });
}
