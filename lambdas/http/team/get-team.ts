import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { teamView } from './team-view.ts';

/**
 * `GET /v1/team`: the team, its plan, this month's usage against the same
 * allowance the submit path enforces, its counts and its settings.
 */
export const contract = defineContract({
  tag: 'Team',
  answers: [{ status: 200, description: 'The team.', body: 'TeamView' }],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller }) =>
  json(200, await teamView(caller.team)),
);
