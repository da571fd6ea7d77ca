import { config } from '#config';
import { webhookHostOf } from '#domain/audit.ts';
import { invalidRequest } from '#domain/errors.ts';
import { duplicateForm } from '#domain/form-defaults.ts';
import { duplicateFormInput, duplicateName } from '#domain/form-input.ts';
import { toFullForm } from '#domain/form-model.ts';
import {
  type ChatIntegration,
  copyChat,
  type IntegrationKind,
  isChatKind,
  withKind,
} from '#domain/integrations.ts';
import { copyWebhook } from '#domain/webhooks.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getTeamForm, insertForm } from '#store/forms.ts';
import { listIntegrations } from '#store/integrations.ts';
import { getWebhook } from '#store/webhooks.ts';

export const contract = defineContract({
  tag: 'Forms',
  body: duplicateFormInput,
  answers: [{ status: 201, description: 'The copy.', body: 'Form' }],
  errors: ['form_limit_reached'],
});

export const handler = managementRoute(
  contract,
  async ({ input, caller, pathParameters, event }) => {
    const source = await getTeamForm(caller.team.teamId, pathParameters.id);
    const { nameSuffix } = input.body();
    const name = duplicateName(source.name, nameSuffix);
    if (!name) {
      throw invalidRequest('The copy’s name would exceed 200 characters', [
        {
          path: 'nameSuffix',
          code: 'too_big',
          message: 'Name plus suffix must be 1 to 200 characters',
        },
      ]);
    }
    const now = new Date();
    const copied = duplicateForm(source, { name, userId: caller.userId, now });
    // Webhooks and integrations are Pro: a team that was downgraded keeps its own but copies
    // none. Slack and Discord are copied with the same URL, Sheets never (the specification:
    // docs/integrations.md#duplicating-and-deleting-a-form).
    const pro = caller.team.plan === 'pro';
    const webhook = pro ? await getWebhook(source.id) : undefined;
    const chats = pro
      ? (await listIntegrations(source.id))
          .filter((integration): integration is ChatIntegration => isChatKind(integration.kind))
          .map((integration) => copyChat(integration, copied.id, now))
      : [];
    const form = {
      ...copied,
      integrations: chats.reduce<IntegrationKind[]>((kinds, { kind }) => withKind(kinds, kind), []),
    };
    const copy = await insertForm(form, {
      webhook: webhook && copyWebhook(webhook, form.id, now),
      integrations: chats,
    });
    await auditByCaller(caller, event, 'form.created', copy.id, {
      name: copy.name,
      type: copy.type,
      copiedFrom: source.id,
      copiedFromName: source.name,
    });
    for (const integration of chats) {
      await auditByCaller(caller, event, 'integration.connected', copy.id, {
        kind: integration.kind,
        host: webhookHostOf(integration.webhookUrl),
        copiedFrom: source.id,
      });
    }
    if (webhook) {
      // The copy sends its posts to the same receiver: a webhook connected like any other.
      await auditByCaller(caller, event, 'webhook.connected', copy.id, {
        host: webhookHostOf(webhook.url),
        copiedFrom: source.id,
      });
    }
    return json(201, toFullForm(copy, config.baseUrl));
  },
);
