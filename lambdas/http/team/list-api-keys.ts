import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { listApiKeys } from '#store/api-key-listings.ts';
import { requireOwner } from './require-owner.ts';

/** `GET /v1/team/api-keys` (owners): the team's keys, newest first, never their secrets. */
export const handler = managementRoute(async ({ caller }) => {
  requireOwner(caller);
  return json(200, { apiKeys: await listApiKeys(caller.team.teamId) });
});
