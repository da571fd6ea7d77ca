import { randomUUID } from 'node:crypto';
import type { Plan, Team } from '#domain/team.ts';
import { childrenOf } from './by-parent.ts';
import { ALL_TEAMS, stripPlumbing, teamKey } from './keys.ts';
import { ownerMemberItems } from './members.ts';
import { batchGetAll, updateIf } from './retries.ts';
import { getItem, transact } from './table.ts';

export type { Plan, Team } from '#domain/team.ts';

export async function createTeam(input: {
  name: string;
  ownerEmail: string;
  plan: Plan;
}): Promise<Team> {
  const createdAt = new Date().toISOString();
  const team: Team = {
    teamId: randomUUID(),
    name: input.name,
    ownerEmail: input.ownerEmail,
    ownerUserId: randomUUID(),
    plan: input.plan,
    formCount: 0,
    createdAt,
    membersSince: createdAt,
    ownerCount: 1,
  };
  // The owner is the team's first member from the start.
  await transact([
    {
      Put: {
        Item: { ...teamKey(team.teamId), entity: 'team', parentPk: ALL_TEAMS, ...team },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...ownerMemberItems(team, createdAt),
  ]);
  return team;
}

/** The teams that exist of `teamIds`, in no order. */
export async function getTeams(teamIds: readonly string[]): Promise<Team[]> {
  const items = await batchGetAll(teamIds.map(teamKey));
  return items.map((item) => stripPlumbing<Team>(item));
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
