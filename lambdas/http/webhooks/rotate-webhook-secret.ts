import { notFound } from '#domain/errors.ts';
import { rotateWebhookSecret, toWebhookView } from '#domain/webhooks.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getTeamForm } from '#store/forms.ts';
import { getWebhook, putWebhook } from '#store/webhooks.ts';

export const contract = defineContract({
  tag: 'Webhooks',
  answers: [{ status: 200, description: 'With the new secret.', body: 'Webhook' }],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters, event }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  const existing = await getWebhook(form.id);
  if (!existing) throw notFound('Webhook');
  const webhook = rotateWebhookSecret(existing, new Date());
  await putWebhook(webhook);
  await auditByCaller(caller, event, 'webhook.secret_rotated', form.id);
  return json(200, toWebhookView(webhook));
});
