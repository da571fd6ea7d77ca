import { config } from '#config';
import { planRequired } from '#domain/errors.ts';
import { changeWebhookUrl, connectWebhook, toWebhookView, webhookInput } from '#domain/webhooks.ts';
import { managementRoute } from '#http/management-route.ts';
import { parse } from '#http/parse.ts';
import { json } from '#http/respond.ts';
import { getTeamForm } from '#store/forms.ts';
import { getWebhook, putWebhook } from '#store/webhooks.ts';

/** Connect (201, new secret) or change the URL (200, same secret). */
export const handler = managementRoute(async ({ body, caller, pathParameters }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  const { url } = parse(webhookInput({ allowLoopback: config.webhookAllowLoopback }), body);
  if (caller.team.plan !== 'pro') throw planRequired('A webhook');
  const existing = await getWebhook(form.id);
  const now = new Date();
  const webhook = existing
    ? changeWebhookUrl(existing, url, now)
    : connectWebhook(form.id, url, now);
  await putWebhook(webhook);
  return json(existing ? 200 : 201, toWebhookView(webhook));
});
