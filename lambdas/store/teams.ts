import { randomUUID } from 'node:crypto';
import { childrenOf } from './by-parent.ts';
import { ALL_TEAMS, stripPlumbing, teamKey } from './keys.ts';
import { updateIf } from './retries.ts';
import { getItem, putNewItem } from './table.ts';

export type Plan = 'free' | 'pro';

export interface Team {
  teamId: string;
  name: string;
  ownerEmail: string;
  ownerUserId: string;
  plan: Plan;
  /** Forms the team holds now; the Free limit is enforced on it atomically. */
  formCount: number;
  /** Overrides the plan's monthly submission allowance when set (admin CLI). */
  monthlyAllowance?: number;
  createdAt: string;
}

export async function createTeam(input: {
  name: string;
  ownerEmail: string;
  plan: Plan;
}): Promise<Team> {
  const team: Team = {
    teamId: randomUUID(),
    name: input.name,
    ownerEmail: input.ownerEmail,
    ownerUserId: randomUUID(),
    plan: input.plan,
    formCount: 0,
    createdAt: new Date().toISOString(),
  };
  await putNewItem({ ...teamKey(team.teamId), entity: 'team', parentPk: ALL_TEAMS, ...team });
  return team;
}

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
