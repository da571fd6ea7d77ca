import { config } from '#config';
import { webhookHostOf } from '#domain/audit.ts';
import { invalidRequest, planRequired } from '#domain/errors.ts';
import { chatIntegrationInput, integrationInput } from '#domain/integration-input.ts';
import {
  type ChatKind,
  changeChatUrl,
  chatUrlProblem,
  connectChat,
  toChatIntegrationView,
} from '#domain/integrations.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { type ManagementRequest, managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { getTeamForm } from '#store/forms.ts';
import { saveIntegration } from '#store/integrations.ts';
import { connectSheet } from './connect-sheet.ts';
import { integrationKindOf } from './integration-kind.ts';

/**
 * Connects Sheets by a spreadsheet shared with the service account
 * (docs/integrations.md#connecting-a-sheet), or Slack or Discord by an
 * incoming-webhook URL (docs/integrations.md#slack-and-discord), or changes
 * what a connected one points at.
 */
export const contract = defineContract({
  tag: 'Integrations',
  description:
    '`{kind}` is `sheets` (`spreadsheetId`, optional `sheetName`: the spreadsheet must be shared ' +
    'with `serviceAccountEmail` of `GET …/integrations`, and is read before it is saved), ' +
    '`slack` (`webhookUrl` https://hooks.slack.com/services/…) or `discord` ' +
    '(`webhookUrl` https://discord.com/api/webhooks/{id}/{token}, also discordapp.com). ' +
    'Pro. Connecting again with another URL keeps the connection and makes it active again.',
  body: integrationInput,
  answers: [
    {
      status: 200,
      description: 'Connected: Sheets with the sheet resolved, a chat with its URL cut.',
      body: 'ConnectedIntegration',
    },
  ],
  errors: [
    'plan_required',
    'conflict',
    'integration_not_configured',
    'sheet_not_shared',
    'spreadsheet_not_found',
    'sheet_not_found',
    'busy',
  ],
});

type PutIntegrationRequest = ManagementRequest<typeof contract>;

export const handler = managementRoute(contract, async (request) => {
  const kind = integrationKindOf(request.pathParameters.kind);
  return kind === 'sheets' ? connectSheet(request) : connectChatKind(request, kind);
});

async function connectChatKind(
  { input, caller, pathParameters, event }: PutIntegrationRequest,
  kind: ChatKind,
) {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  const { webhookUrl } = input.bodyAs(chatIntegrationInput);
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
}
