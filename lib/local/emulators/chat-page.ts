import { html, type SafeHtml } from '#domain/html.ts';
import { jsonObject } from './chat-checks.ts';

/**
 * The local chat receivers' page: every message they got, newest first, as
 * the service would show its text (Slack's entities read back, Discord's
 * backslash escapes taken off) and as the raw JSON received. Everything in
 * it is escaped for HTML: a hostile answer shows as text here too.
 */

export interface ChatReceived {
  /** Numbered from 1 in the order received. */
  id: number;
  service: 'slack' | 'discord';
  /** The path posted to (the webhook's address on this receiver). */
  path: string;
  receivedAt: string;
  /** What the receiver answered. */
  status: number;
  /** Why it was refused, as the answer said; null when taken. */
  refused: string | null;
  /** The body as received (cut at 64 KB for the record). */
  body: string;
  /** What in it would notify people on the real service (`pingingMentions`); empty for ours. */
  mentions: string[];
}

export interface ChatAddresses {
  slackUrl: string;
  discordUrl: string;
}

/** What Slack shows of text: its three entities read back. */
export const slackShown = (text: string) =>
  text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
/** What Discord shows of text: a backslash before punctuation shows the punctuation. */
export const discordShown = (text: string) => text.replace(/\\([^0-9A-Za-z\s])/g, '$1');

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

function slackView(message: Record<string, unknown>): SafeHtml {
  const texts = list(message.blocks).flatMap((block) => {
    const { type, text, elements, fields } = record(block);
    if (type === 'context')
      return list(elements).map((element) => ({
        kind: 'context',
        text: str(record(element).text),
      }));
    if (type === 'header') return [{ kind: 'header', text: str(record(text).text) }];
    return [
      ...(text === undefined ? [] : [{ kind: 'section', text: str(record(text).text) }]),
      ...list(fields).map((field) => ({ kind: 'section', text: str(record(field).text) })),
    ];
  });
  return html`<p class="fallback">${slackShown(str(message.text))}</p>${texts.map(
    (part) => html`\n<div class="${part.kind}">${slackShown(part.text)}</div>`,
  )}`;
}

function discordView(message: Record<string, unknown>): SafeHtml {
  const embeds = list(message.embeds).map((value) => {
    const embed = record(value);
    const url = str(embed.url);
    const title = discordShown(str(embed.title));
    return html`\n<div class="embed">${
      /^https?:\/\//.test(url)
        ? html`<a class="header" href="${url}">${title}</a>`
        : html`<div class="header">${title}</div>`
    }${embed.description === undefined ? '' : html`\n<div>${discordShown(str(embed.description))}</div>`}${list(
      embed.fields,
    ).map((field) => {
      const { name, value: fieldValue } = record(field);
      return html`\n<div class="section"><strong>${discordShown(str(name))}</strong>\n${discordShown(str(fieldValue))}</div>`;
    })}${
      embed.footer === undefined
        ? ''
        : html`\n<div class="context">${discordShown(str(record(embed.footer).text))}</div>`
    }</div>`;
  });
  return html`<p class="fallback">${discordShown(str(message.content))}</p>${embeds}`;
}

function entry(received: ChatReceived): SafeHtml {
  const message = jsonObject(received.body);
  const pretty = message ? JSON.stringify(message, null, 2) : received.body;
  const service = received.service === 'slack' ? 'Slack' : 'Discord';
  return html`
<article>
<h2>${service} #${received.id} · ${received.receivedAt} · answered ${received.status}</h2>
<p class="path">${received.path}</p>${received.refused ? html`\n<p class="refused">Refused: ${received.refused}</p>` : ''}${
    (received.mentions ?? []).length > 0
      ? html`\n<p class="refused">Would notify people: ${received.mentions.join(' ')}</p>`
      : ''
  }
${message ? (received.service === 'slack' ? slackView(message) : discordView(message)) : ''}
<details><summary>Body as received</summary><pre>${pretty}</pre></details>
</article>`;
}

export function chatPage(received: readonly ChatReceived[], addresses: ChatAddresses): string {
  const newestFirst = received.toReversed();
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Slack and Discord messages (local)</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5rem auto; max-width: 52rem; padding: 0 1rem; }
article { border: 1px solid #8886; border-radius: 6px; padding: 0.5rem 1rem; margin: 1rem 0; }
h2 { font-size: 1rem; margin: 0.3rem 0; }
.path, .context { color: #666; font-size: 0.85rem; }
.header { font-weight: 700; font-size: 1.1rem; }
.section, .fallback { white-space: pre-wrap; overflow-wrap: anywhere; }
.section { margin: 0.4rem 0; }
.embed { border-left: 4px solid #5865f2; padding-left: 0.7rem; }
.refused { color: #b00020; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.8rem; }
code { overflow-wrap: anywhere; }
</style>
</head>
<body>
<h1>Slack and Discord messages (local)</h1>
<p>Addresses to paste into the dashboard: Slack <code>${addresses.slackUrl}</code>, Discord <code>${addresses.discordUrl}</code>. Any path under <code>/slack/services/</code> or <code>/discord/api/webhooks/</code> is taken; a last path segment <code>fail-429</code> (or another status) answers that status.</p>
<p>${received.length === 0 ? 'No message yet.' : `${received.length} received, newest first.`}</p>
${newestFirst.map(entry)}
</body>
</html>
`.text;
}
