import { randomUUID } from 'node:crypto';
import type { Plan, Team } from '#domain/team.ts';
import { ALL_TEAMS, teamKey } from './keys.ts';
import { ownerMemberItems } from './members.ts';
import { transact } from './table.ts';

/**
 * A new team (the admin CLI's), with its owner as its first member from the
 * start. Apart from teams.ts, which every request reads through: this one
 * brings the members code along.
 */
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
