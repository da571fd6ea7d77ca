import { config } from '#config';
import { toIntegrationsView } from '#domain/integrations-view.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { listDeliveries } from '#store/deliveries.ts';
import { getTeamForm } from '#store/forms.ts';
import { listIntegrations } from '#store/integrations.ts';
import { getWebhook } from '#store/webhooks.ts';

/**
 * Every way the form's submissions leave, each `null` when not connected:
 * the webhook (without its secret), Sheets, Slack and Discord, their URLs
 * cut (docs/integrations.md#the-api).
 */
export const contract = defineContract({
  tag: 'Integrations',
  answers: [{ status: 200, description: 'The integrations.', body: 'Integrations' }],
  errors: [],
});

export const handler = managementRoute(contract, async ({ caller, pathParameters }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  const [webhook, integrations] = await Promise.all([
    getWebhook(form.id),
    listIntegrations(form.id),
  ]);
  const lastDelivered = webhook
    ? (await listDeliveries(form.id, { status: 'delivered', limit: 1 })).deliveries[0]
    : undefined;
  return json(
    200,
    toIntegrationsView({
      serviceAccountEmail: config.googleServiceAccountEmail ?? null,
      webhook,
      webhookLastDeliveryAt: lastDelivered?.updatedAt ?? null,
      integrations,
    }),
  );
});
