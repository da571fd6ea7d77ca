import { notFound } from '#domain/errors.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getTeamForm } from '#store/forms.ts';
import { deleteWebhook } from '#store/webhooks.ts';

/** Deletes the webhook and its secret; connecting again issues a new one. */
export const contract = defineContract({
  tag: 'Webhooks',
  answers: [{ status: 200, description: 'Disconnected.', body: 'Ok' }],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters, event }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  if (!(await deleteWebhook(form.id))) throw notFound('Webhook');
  await auditByCaller(caller, event, 'webhook.disconnected', form.id);
  return json(200, { ok: true });
});
