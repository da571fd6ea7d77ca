import { notFound } from '#domain/errors.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { removeIntegration } from '#store/integrations.ts';
import { integrationKindOf } from './integration-kind.ts';

/**
 * Disconnects the integration, any plan; its queued messages end
 * `cancelled` (`integration_removed`) when their turn comes
 * (docs/integrations.md#the-api).
 */
export const contract = defineContract({
  tag: 'Integrations',
  description: '404 when the kind is not connected (or not a kind).',
  answers: [{ status: 204, description: 'Disconnected.', body: null }],
  errors: ['conflict'],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters, event }) => {
  const kind = integrationKindOf(pathParameters.kind);
  const removed = await removeIntegration(caller.team.teamId, pathParameters.id, kind);
  if (!removed) throw notFound('Integration');
  await auditByCaller(caller, event, 'integration.disconnected', removed.form.id, { kind });
  return { statusCode: 204, headers: {}, body: '' };
});
