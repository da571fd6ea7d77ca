import type { ResponseBody } from '#contracts/responses.ts';
import type { ChatKind } from '#domain/integrations.ts';

/**
 * The integrations screen's words (docs/dashboard.md#integrations): each
 * chat's name, where its owner finds the incoming-webhook URL, and an
 * integration's state. Records over the domain's kinds, so a new kind
 * without words fails the typecheck.
 */

export type Integrations = ResponseBody<'Integrations'>;
export type ChatIntegration = ResponseBody<'ChatIntegration'>;
export type SheetsIntegration = ResponseBody<'SheetsIntegration'>;

/**
 * The spreadsheet id in what an owner pastes: the id itself, or the
 * spreadsheet's address (`https://docs.google.com/spreadsheets/d/{id}/edit…`).
 */
export function spreadsheetIdOf(pasted: string): string {
  const text = pasted.trim();
  const inUrl = /\/spreadsheets\/d\/([A-Za-z0-9_-]+)/.exec(text);
  return inUrl ? inUrl[1]! : text;
}

export const CHAT_KINDS_SHOWN: readonly ChatKind[] = ['slack', 'discord'];

export const CHAT_NAMES: Record<ChatKind, string> = { slack: 'Slack', discord: 'Discord' };

/** Where the URL to paste comes from, in the service's own menu names. */
export const CHAT_URL_SOURCES: Record<ChatKind, string> = {
  slack:
    'In Slack, open your app’s settings at api.slack.com/apps (or create an app), turn on ' +
    'Incoming Webhooks, choose “Add New Webhook to Workspace” and the channel, then copy the ' +
    'webhook URL it shows (it starts with https://hooks.slack.com/services/).',
  discord:
    'In Discord, open the channel’s settings, then Integrations, Webhooks, New Webhook, and ' +
    'choose “Copy Webhook URL” (it starts with https://discord.com/api/webhooks/).',
};

export const CHAT_PLACEHOLDERS: Record<ChatKind, string> = {
  slack: 'https://hooks.slack.com/services/…',
  discord: 'https://discord.com/api/webhooks/…',
};

/** An integration's state in words: "Active", or "Failing" (docs/integrations.md#slack-and-discord-failures). */
export function integrationStateWords(status: ChatIntegration['status']): string {
  return status === 'failing' ? 'Failing' : 'Active';
}
