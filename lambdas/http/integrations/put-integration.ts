import { config } from '#config';
import { webhookHostOf } from '#domain/audit.ts';
import { invalidRequest, planRequired } from '#domain/errors.ts';
import { chatIntegrationInput } from '#domain/integration-input.ts';
import {
  changeChatUrl,
  chatUrlProblem,
  connectChat,
  toChatIntegrationView,
} from '#domain/integrations.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getTeamForm } from '#store/forms.ts';
import { saveIntegration } from '#store/integrations.ts';
import { chatKindOf } from './integration-kind.ts';

/**
 * Connects Slack or Discord (`{kind}` is `slack` or `discord`), or changes
 * its URL (docs/integrations.md#slack-and-discord).
 */
export const contract = defineContract({
  tag: 'Integrations',
  description:
    '`{kind}` is `slack` (`webhookUrl` https://hooks.slack.com/services/…) or `discord` ' +
    '(`webhookUrl` https://discord.com/api/webhooks/{id}/{token}, also discordapp.com). ' +
    'Pro. Connecting again with another URL keeps the connection and makes it active again.',
  body: chatIntegrationInput,
  answers: [{ status: 200, description: 'Connected; the URL cut.', body: 'ChatIntegration' }],
  errors: ['plan_required', 'conflict'],
});

export const handler = managementRoute(
  contract,
  async ({ input, caller, pathParameters, event }) => {
    const form = await getTeamForm(caller.team.teamId, pathParameters.id);
    const kind = chatKindOf(pathParameters.kind);
    const { webhookUrl } = input.body();
    const problem = chatUrlProblem(kind, webhookUrl, {
      allowLoopback: config.webhookAllowLoopback,
    });
    if (problem) {
      throw invalidRequest(`webhookUrl: ${problem}`, [
        { path: 'webhookUrl', code: 'invalid_format', message: problem },
      ]);
    }
    if (caller.team.plan !== 'pro') throw planRequired(kind === 'slack' ? 'Slack' : 'Discord');
    const now = new Date();
    const { before, after } = await saveIntegration(
      caller.team.teamId,
      form.id,
      kind,
      (_, existing) =>
        existing
          ? changeChatUrl(existing, webhookUrl, now)
          : connectChat(form.id, kind, webhookUrl, now),
    );
    if (!before) {
      await auditByCaller(caller, event, 'integration.connected', form.id, {
        kind,
        host: webhookHostOf(webhookUrl),
      });
    } else if (before.webhookUrl !== webhookUrl) {
      await auditByCaller(caller, event, 'integration.url_changed', form.id, {
        kind,
        host: webhookHostOf(webhookUrl),
      });
    }
    return json(200, toChatIntegrationView(after));
  },
);
