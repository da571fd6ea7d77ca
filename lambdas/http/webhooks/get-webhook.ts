import { notFound } from '#domain/errors.ts';
import { toWebhookView } from '#domain/webhooks.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getTeamForm } from '#store/forms.ts';
import { getWebhook } from '#store/webhooks.ts';

export const contract = defineContract({
  tag: 'Webhooks',
  answers: [{ status: 200, description: 'The webhook.', body: 'Webhook' }],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  const webhook = await getWebhook(form.id);
  if (!webhook) throw notFound('Webhook');
  return json(200, toWebhookView(webhook));
});
