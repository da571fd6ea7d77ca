import { issueApiKey } from '#domain/api-keys.ts';
import { createApiKeyInput } from '#domain/member-input.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { putApiKey } from '#store/api-key-listings.ts';
import { requireOwner } from './require-owner.ts';

/**
 * `POST /v1/team/api-keys { name? }` (owners): `201` with the key itself,
 * shown this once (only its hash is kept). The new key acts with its
 * creator's membership; one made with an operator's key is an operator's
 * key too (docs/people.md#teams-members-keys-and-the-audit-trail).
 */
export const contract = defineContract({
  tag: 'Team',
  body: createApiKeyInput,
  answers: [{ status: 201, description: 'The key, shown this once.', body: 'ApiKeyCreated' }],
  errors: ['owner_only'],
});

export const handler = managementRoute(contract, async ({ caller, input, event }) => {
  requireOwner(caller);
  const { name } = input.body();
  const issued = issueApiKey();
  const creator = caller.member?.email ?? caller.team.ownerEmail;
  // Stored only while the creator is an owner (a member's key): 403 owner_only otherwise.
  const record = await putApiKey({
    keyId: issued.keyId,
    hash: issued.hash,
    teamId: caller.team.teamId,
    userId: caller.userId,
    createdByEmail: creator,
    name,
    ...(caller.operator ? { operator: true } : {}),
  });
  await auditByCaller(caller, event, 'api_key.created', record.keyId, { name });
  return json(201, {
    keyId: record.keyId,
    name: record.name,
    apiKey: issued.apiKey,
    userId: record.userId,
    createdByEmail: record.createdByEmail ?? null,
    createdAt: record.createdAt,
    lastUsedOn: null,
    revokedAt: null,
  });
});
