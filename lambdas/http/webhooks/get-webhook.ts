import { notFound } from '#domain/errors.ts';
import { toWebhookView } from '#domain/webhooks.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getTeamForm } from '#store/forms.ts';
import { getWebhook } from '#store/webhooks.ts';

export const handler = managementRoute(async ({ caller, pathParameters }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  const webhook = await getWebhook(form.id);
  if (!webhook) throw notFound('Webhook');
  return json(200, toWebhookView(webhook));
});
