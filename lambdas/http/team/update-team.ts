import { notFound } from '#domain/errors.ts';
import { updateTeamInput } from '#domain/team-input.ts';
import { DEFAULT_IP_STORAGE } from '#domain/visitor-ip.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { setTeamIpStorage } from '#store/teams.ts';
import { requireOwner } from './require-owner.ts';
import { teamView } from './team-view.ts';

/**
 * `PATCH /v1/team { ipStorage? }` (owners): the team's own settings
 * (docs/people.md#team-settings). A change is recorded in the audit trail;
 * the same value again changes and records nothing.
 */
export const contract = defineContract({
  tag: 'Team',
  body: updateTeamInput,
  answers: [{ status: 200, description: 'The team as saved.', body: 'TeamView' }],
  errors: ['owner_only'],
});

export const handler = managementRoute(contract, async ({ caller, input, event }) => {
  requireOwner(caller);
  const { ipStorage } = input.body();
  const team = caller.team;
  const previous = team.ipStorage ?? DEFAULT_IP_STORAGE;
  if (ipStorage === undefined || ipStorage === previous) return json(200, await teamView(team));
  if (!(await setTeamIpStorage(team.teamId, ipStorage))) throw notFound('Team');
  await auditByCaller(caller, event, 'team.ip_storage_changed', team.teamId, {
    ipStorage,
    previousIpStorage: previous,
  });
  return json(200, await teamView({ ...team, ipStorage }));
});
