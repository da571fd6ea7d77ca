import { deliveryListQuery } from '#domain/delivery-list-query.ts';
import { toDeliveryView } from '#domain/delivery-log.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { listDeliveries } from '#store/deliveries.ts';
import { getTeamForm } from '#store/forms.ts';
import { integrationKindOf } from './integration-kind.ts';

/**
 * The integration's deliveries, newest first: the webhook delivery log's
 * shape and rules (docs/delivery.md#delivery-log), one per submission.
 */
export const contract = defineContract({
  tag: 'Integrations',
  query: deliveryListQuery,
  answers: [
    {
      status: 200,
      description: 'Deliveries newest first; `next` continues, `null` at the end.',
      body: 'DeliveryPage',
    },
  ],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters, input }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  const kind = integrationKindOf(pathParameters.kind);
  const page = await listDeliveries(form.id, { ...input.query(), target: kind });
  return json(200, { deliveries: page.deliveries.map(toDeliveryView), next: page.next });
});
