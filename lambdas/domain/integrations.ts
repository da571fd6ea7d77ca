/**
 * A form's integrations (docs/integrations.md#the-api): each kind connected
 * at most once per form, stored beside the form (`INTEGRATION#<kind>`), the
 * form item listing the kinds connected. Slack and Discord post a message
 * per submission to an incoming-webhook URL; Sheets appends a row per
 * submission to a spreadsheet shared with the service account.
 */
export const INTEGRATION_KINDS = ['sheets', 'slack', 'discord'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

/** The integrations that post to a chat's incoming webhook. */
export const CHAT_KINDS = ['slack', 'discord'] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];

export const isIntegrationKind = (value: unknown): value is IntegrationKind =>
  (INTEGRATION_KINDS as readonly unknown[]).includes(value);

export const isChatKind = (value: unknown): value is ChatKind =>
  (CHAT_KINDS as readonly unknown[]).includes(value);

export type IntegrationStatus = 'active' | 'failing';

/** A connected Slack or Discord integration, as stored. */
export interface ChatIntegration {
  formId: string;
  kind: ChatKind;
  /** A secret: whoever holds it can post to the channel. Never answered whole. */
  webhookUrl: string;
  status: IntegrationStatus;
  lastError: string | null;
  /** When this connection was made: deliveries queued for another one are cancelled. */
  connectedAt: string;
  lastDeliveryAt: string | null;
  updatedAt: string;
  /** While set, the receiver was slow lately: one delivery at a time (slow-receivers.ts). */
  slowUntil?: string;
}

/** A connected Google Sheets integration, as stored (docs/integrations.md#google-sheets). */
export interface SheetsIntegration {
  formId: string;
  kind: 'sheets';
  spreadsheetId: string;
  /** The sheet's name as the spreadsheet spells it (the first sheet when none was given). */
  sheetName: string;
  status: IntegrationStatus;
  lastError: string | null;
  connectedAt: string;
  lastDeliveryAt: string | null;
  updatedAt: string;
}

/** Any connected integration, as stored. */
export type Integration = ChatIntegration | SheetsIntegration;

/** Where a chat URL's name and path must point, per kind (docs/integrations.md#slack-and-discord). */
const CHAT_URL_RULES: Record<ChatKind, { hosts: readonly string[]; path: RegExp; shape: string }> =
  {
    slack: {
      hosts: ['hooks.slack.com'],
      path: /^\/services\/[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)+$/,
      shape: 'https://hooks.slack.com/services/…',
    },
    discord: {
      hosts: ['discord.com', 'discordapp.com'],
      path: /^\/api\/webhooks\/\d{1,30}\/[A-Za-z0-9_-]{1,200}$/,
      shape: 'https://discord.com/api/webhooks/{id}/{token}',
    },
  };

export const CHAT_URL_MAX_LENGTH = 2048;

/**
 * Why `url` cannot be the kind's incoming-webhook URL, or undefined when it
 * can: the service's own address (`https://`, its host, no port, no user,
 * no query or fragment, the path's shape), or where the deployment allows
 * loopback receivers (the local stack, as for webhooks:
 * docs/delivery.md#sending-rules), any `https://127.0.0.1:{port}/…`.
 */
export function chatUrlProblem(
  kind: ChatKind,
  url: string,
  options: { allowLoopback: boolean },
): string | undefined {
  const rule = CHAT_URL_RULES[kind];
  const expected = `Must be a ${kind === 'slack' ? 'Slack' : 'Discord'} incoming webhook URL (${rule.shape})`;
  if (!URL.canParse(url)) return expected;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '') {
    return expected;
  }
  if (options.allowLoopback && parsed.hostname === '127.0.0.1' && parsed.port !== '') {
    return undefined;
  }
  if (!rule.hosts.includes(parsed.hostname) || parsed.port !== '') return expected;
  if (parsed.search !== '' || parsed.hash !== '' || !rule.path.test(parsed.pathname)) {
    return expected;
  }
  return undefined;
}

/**
 * The URL as the API shows it: its last path segment cut to 4 characters
 * (half of a shorter one) and `…`, no query; enough to tell two apart,
 * never enough to post.
 */
export function maskedUrl(url: string): string {
  if (!URL.canParse(url)) return '…';
  const parsed = new URL(url);
  const segments = parsed.pathname.split('/');
  const last = segments.pop() ?? '';
  const kept = last.slice(0, Math.min(4, Math.floor(last.length / 2)));
  return `${parsed.origin}${[...segments, `${kept}…`].join('/')}`;
}

export function connectChat(
  formId: string,
  kind: ChatKind,
  webhookUrl: string,
  now: Date,
): ChatIntegration {
  const at = now.toISOString();
  return {
    formId,
    kind,
    webhookUrl,
    status: 'active',
    lastError: null,
    connectedAt: at,
    lastDeliveryAt: null,
    updatedAt: at,
  };
}

/**
 * A new URL for a connected integration: the same connection (queued
 * messages go to the new URL, as a webhook's do), started afresh.
 */
export function changeChatUrl(
  integration: ChatIntegration,
  webhookUrl: string,
  now: Date,
): ChatIntegration {
  return {
    ...integration,
    webhookUrl,
    status: 'active',
    lastError: null,
    updatedAt: now.toISOString(),
  };
}

/** A duplicated form's integration: the same URL, a connection of its own. */
export function copyChat(integration: ChatIntegration, formId: string, now: Date): ChatIntegration {
  return connectChat(formId, integration.kind, integration.webhookUrl, now);
}

/**
 * Connects a spreadsheet's sheet, or points a connected integration at
 * another one: either way a new connection (deliveries queued for the old
 * sheet end `cancelled`, never written to the new one), active, no error.
 */
export function connectSheets(
  formId: string,
  target: { spreadsheetId: string; sheetName: string },
  now: Date,
  existing?: SheetsIntegration,
): SheetsIntegration {
  const at = now.toISOString();
  const same =
    existing?.spreadsheetId === target.spreadsheetId && existing.sheetName === target.sheetName;
  return {
    formId,
    kind: 'sheets',
    spreadsheetId: target.spreadsheetId,
    sheetName: target.sheetName,
    status: 'active',
    lastError: null,
    connectedAt: same ? existing.connectedAt : at,
    lastDeliveryAt: same ? existing.lastDeliveryAt : null,
    updatedAt: at,
  };
}

export function toSheetsIntegrationView(integration: SheetsIntegration) {
  const { status, lastError, connectedAt, lastDeliveryAt, spreadsheetId, sheetName } = integration;
  return { status, lastError, connectedAt, lastDeliveryAt, spreadsheetId, sheetName };
}

/** The kinds a form lists as connected, in the order of INTEGRATION_KINDS. */
export function withKind(
  kinds: readonly IntegrationKind[],
  kind: IntegrationKind,
): IntegrationKind[] {
  return INTEGRATION_KINDS.filter((each) => each === kind || kinds.includes(each));
}

export function withoutKind(
  kinds: readonly IntegrationKind[],
  kind: IntegrationKind,
): IntegrationKind[] {
  return INTEGRATION_KINDS.filter((each) => each !== kind && kinds.includes(each));
}

export function toChatIntegrationView(integration: ChatIntegration) {
  const { status, lastError, connectedAt, lastDeliveryAt, webhookUrl } = integration;
  return { status, lastError, connectedAt, lastDeliveryAt, webhookUrl: maskedUrl(webhookUrl) };
}
