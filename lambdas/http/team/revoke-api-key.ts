import { notFound } from '#domain/errors.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { revokeApiKey } from '#store/api-key-listings.ts';
import { getApiKey } from '#store/api-keys.ts';
import { requireOwner } from './require-owner.ts';

/** `DELETE /v1/team/api-keys/{keyId}` (owners): the key stops working at once. */
export const contract = defineContract({
  tag: 'Team',
  answers: [{ status: 200, description: 'Revoked.', body: 'Ok' }],
  errors: ['owner_only'],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters, event }) => {
  requireOwner(caller);
  const keyId = pathParameters.keyId ?? '';
  const record = /^[a-z0-9]{16}$/.test(keyId) ? await getApiKey(keyId) : undefined;
  if (!record || record.teamId !== caller.team.teamId) throw notFound('API key');
  await revokeApiKey(keyId);
  await auditByCaller(caller, event, 'api_key.revoked', keyId, { name: record.name });
  return json(200, { ok: true });
});
