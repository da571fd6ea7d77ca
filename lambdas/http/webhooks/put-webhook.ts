import { config } from '#config';
import { webhookHostOf } from '#domain/audit.ts';
import { planRequired } from '#domain/errors.ts';
import { changeWebhookUrl, connectWebhook, toWebhookView, webhookInput } from '#domain/webhooks.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getTeamForm } from '#store/forms.ts';
import { getWebhook, putWebhook } from '#store/webhooks.ts';

/** Connect (201, new secret) or change the URL (200, same secret). */
export const contract = defineContract({
  tag: 'Webhooks',
  body: webhookInput({ allowLoopback: config.webhookAllowLoopback }),
  answers: [
    { status: 200, description: 'URL changed; same secret.', body: 'Webhook' },
    { status: 201, description: 'Connected, with a new secret.', body: 'Webhook' },
  ],
  errors: ['plan_required'],
});

export const handler = managementRoute(
  contract,
  async ({ input, caller, pathParameters, event }) => {
    const form = await getTeamForm(caller.team.teamId, pathParameters.id);
    const { url } = input.body();
    if (caller.team.plan !== 'pro') throw planRequired('A webhook');
    const existing = await getWebhook(form.id);
    const now = new Date();
    const webhook = existing
      ? changeWebhookUrl(existing, url, now)
      : connectWebhook(form.id, url, now);
    await putWebhook(webhook);
    if (!existing) {
      await auditByCaller(caller, event, 'webhook.connected', form.id, {
        host: webhookHostOf(url),
      });
    } else if (existing.url !== url) {
      await auditByCaller(caller, event, 'webhook.url_changed', form.id, {
        host: webhookHostOf(url),
        previousHost: webhookHostOf(existing.url),
      });
    }
    return json(existing ? 200 : 201, toWebhookView(webhook));
  },
);
