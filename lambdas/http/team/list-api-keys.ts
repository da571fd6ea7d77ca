import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { listApiKeys } from '#store/api-key-listings.ts';
import { requireOwner } from './require-owner.ts';

/** `GET /v1/team/api-keys` (owners): the team's keys, newest first, never their secrets. */
export const contract = defineContract({
  tag: 'Team',
  answers: [{ status: 200, description: 'The keys, newest first.', body: 'ApiKeyList' }],
  errors: ['owner_only'],
});

export const handler = managementRoute(contract, async ({ caller }) => {
  requireOwner(caller);
  return json(200, { apiKeys: await listApiKeys(caller.team.teamId) });
});
