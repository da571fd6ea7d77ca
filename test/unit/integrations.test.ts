import { describe, expect, it } from 'vitest';
import { channelsFor, sheetsMessage } from '#domain/delivery-channels.ts';
import {
  changeChatUrl,
  chatUrlProblem,
  connectChat,
  connectSheets,
  copyChat,
  maskedUrl,
  toChatIntegrationView,
  withKind,
  withoutKind,
} from '#domain/integrations.ts';

const deployed = { allowLoopback: false };
const local = { allowLoopback: true };

describe('a Slack or Discord URL is the service’s incoming webhook, nothing else', () => {
  it.each([
    ['slack', 'https://hooks.slack.com/services/T0001/B0001/abcdefghijkl'],
    ['discord', 'https://discord.com/api/webhooks/123456789012345678/abc_DEF-123'],
    ['discord', 'https://discordapp.com/api/webhooks/1/t'],
  ] as const)('%s accepts %s', (kind, url) => {
    expect(chatUrlProblem(kind, url, deployed)).toBeUndefined();
  });

  it.each([
    ['slack', 'https://discord.com/api/webhooks/1/t'],
    ['slack', 'http://hooks.slack.com/services/T0/B0/x'],
    ['slack', 'https://HOOKS.slack.com.evil.example/services/T0/B0/x'],
    ['slack', 'https://hooks.slack.com:444/services/T0/B0/x'],
    ['slack', 'https://a:b@hooks.slack.com/services/T0/B0/x'],
    ['slack', 'https://hooks.slack.com/services/T0/B0/x#y'],
    ['slack', 'https://hooks.slack.com/services/T0/B0/x?y'],
    ['slack', 'https://hooks.slack.com/services/'],
    ['slack', 'https://hooks.slack.com/services/T0/../../admin'],
    ['discord', 'https://discord.com/api/webhooks/abc/t'],
    ['discord', 'https://discord.com/api/webhooks/1/t/extra'],
    ['discord', 'https://discord.com.evil.example/api/webhooks/1/t'],
    ['discord', 'https://127.0.0.1:8443/discord'],
    ['discord', 'not a url'],
  ] as const)('%s refuses %s, saying what it must be', (kind, url) => {
    expect(chatUrlProblem(kind, url, deployed)).toMatch(
      /^Must be a (Slack|Discord) incoming webhook URL/,
    );
  });

  it('where loopback is allowed (the local stack), any https://127.0.0.1:{port}/… stands in', () => {
    expect(chatUrlProblem('slack', 'https://127.0.0.1:8443/slack', local)).toBeUndefined();
    expect(chatUrlProblem('discord', 'https://127.0.0.1:9/x/y', local)).toBeUndefined();
    expect(chatUrlProblem('slack', 'https://127.0.0.1/slack', local)).toBeDefined();
    expect(chatUrlProblem('slack', 'http://127.0.0.1:8443/slack', local)).toBeDefined();
    expect(chatUrlProblem('slack', 'https://10.0.0.1:8443/slack', local)).toBeDefined();
  });
});

describe('a chat URL is never answered whole', () => {
  it('its last path segment cut to 4 characters and …, the query dropped', () => {
    expect(maskedUrl('https://hooks.slack.com/services/T0001/B0001/abcdefghijkl')).toBe(
      'https://hooks.slack.com/services/T0001/B0001/abcd…',
    );
    expect(maskedUrl('https://discord.com/api/webhooks/42/secret-token?wait=true')).toBe(
      'https://discord.com/api/webhooks/42/secr…',
    );
  });

  it('a short last segment keeps half at most, so it is never shown whole', () => {
    expect(maskedUrl('https://127.0.0.1:8443/abc')).toBe('https://127.0.0.1:8443/a…');
    expect(maskedUrl('https://127.0.0.1:8443/x')).toBe('https://127.0.0.1:8443/…');
    expect(maskedUrl('nonsense')).toBe('…');
  });

  it('the view shows the cut URL and the state', () => {
    const now = new Date('2026-11-26T10:00:00.000Z');
    const view = toChatIntegrationView(
      connectChat('f', 'slack', 'https://hooks.slack.com/services/T/B/abcdefgh', now),
    );
    expect(view).toEqual({
      status: 'active',
      lastError: null,
      connectedAt: now.toISOString(),
      lastDeliveryAt: null,
      webhookUrl: 'https://hooks.slack.com/services/T/B/abcd…',
    });
  });
});

describe('connections', () => {
  const at = new Date('2026-11-26T10:00:00.000Z');
  const later = new Date('2026-11-26T11:00:00.000Z');
  const failing = {
    ...connectChat('f', 'discord', 'https://discord.com/api/webhooks/1/a', at),
    status: 'failing' as const,
    lastError: 'Discord answered HTTP 404',
  };

  it('a new URL keeps the connection and starts it afresh', () => {
    const changed = changeChatUrl(failing, 'https://discord.com/api/webhooks/1/b', later);
    expect(changed).toMatchObject({
      status: 'active',
      lastError: null,
      connectedAt: at.toISOString(),
      updatedAt: later.toISOString(),
    });
  });

  it('a copy is a connection of its own to the same URL', () => {
    expect(copyChat(failing, 'g', later)).toMatchObject({
      formId: 'g',
      kind: 'discord',
      webhookUrl: failing.webhookUrl,
      status: 'active',
      lastError: null,
      connectedAt: later.toISOString(),
      lastDeliveryAt: null,
    });
  });

  it('the form lists the kinds in one order, each once', () => {
    expect(withKind(['discord'], 'slack')).toEqual(['slack', 'discord']);
    expect(withKind(['slack'], 'slack')).toEqual(['slack']);
    expect(withoutKind(['slack', 'discord'], 'slack')).toEqual(['discord']);
    expect(withoutKind([], 'sheets')).toEqual([]);
  });
});

describe('a Sheets connection (docs/integrations.md#connecting-a-sheet)', () => {
  const at = new Date('2026-11-26T10:00:00.000Z');
  const later = new Date('2026-11-26T11:00:00.000Z');
  const target = { spreadsheetId: 'abc', sheetName: 'Responses' };

  it('the same sheet again keeps the connection, active; another sheet is a new one', () => {
    const first = connectSheets('f', target, at);
    const failing = { ...first, status: 'failing' as const, lastError: 'x', lastDeliveryAt: 'y' };
    const again = connectSheets('f', target, later, failing);
    expect(again).toMatchObject({
      connectedAt: at.toISOString(),
      status: 'active',
      lastError: null,
    });
    expect(again.lastDeliveryAt).toBe('y');
    const other = connectSheets('f', { ...target, sheetName: 'Other' }, later, failing);
    expect(other).toMatchObject({ connectedAt: later.toISOString(), lastDeliveryAt: null });
  });

  it('is sent for every stored post of a Pro form but spam', () => {
    const input = {
      form: { notifyEnabled: false, autoreplyEnabled: false },
      webhookConnected: false,
      chats: [],
      sheets: true,
      submitterFound: false,
    };
    expect(channelsFor({ ...input, plan: 'pro', spam: false })).toEqual(['sheets']);
    expect(channelsFor({ ...input, plan: 'pro', spam: true })).toEqual([]);
    expect(channelsFor({ ...input, plan: 'free', spam: false })).toEqual([]);
  });

  it('one FIFO message: the form its group, the submission its deduplication id, a retry a new one', () => {
    const job = { formId: 'f', submissionId: 's' };
    expect(sheetsMessage(job)).toEqual({ body: job, groupId: 'f', deduplicationId: 's' });
    expect(sheetsMessage({ ...job, manual: true }, 'n').deduplicationId).toBe('s-retry-n');
  });
});
