import { deliveryListQuery } from '#domain/delivery-list-query.ts';
import { toDeliveryView } from '#domain/delivery-log.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { listDeliveries } from '#store/deliveries.ts';
import { getTeamForm } from '#store/forms.ts';

/** The form's webhook deliveries, newest first, `limit` at a time; `next` continues. */
export const contract = defineContract({
  tag: 'Webhooks',
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
  const request = input.query();
  const page = await listDeliveries(form.id, request);
  return json(200, { deliveries: page.deliveries.map(toDeliveryView), next: page.next });
});
