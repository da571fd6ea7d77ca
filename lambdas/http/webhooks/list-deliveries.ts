import { deliveryListQuery } from '#domain/delivery-list-query.ts';
import { toDeliveryView } from '#domain/delivery-log.ts';
import { managementRoute } from '#http/management-route.ts';
import { parse } from '#http/parse.ts';
import { json } from '#http/respond.ts';
import { listDeliveries } from '#store/deliveries.ts';
import { getTeamForm } from '#store/forms.ts';

/** The form's webhook deliveries, newest first, `limit` at a time; `next` continues. */
export const handler = managementRoute(async ({ caller, pathParameters, query }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  const request = parse(deliveryListQuery, query, 'query string');
  const page = await listDeliveries(form.id, request);
  return json(200, { deliveries: page.deliveries.map(toDeliveryView), next: page.next });
});
