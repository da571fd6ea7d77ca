import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { describe, expect, it, vi } from 'vitest';
import { discordMessage, slackMessage } from '#domain/chat-messages.ts';
import type { ChatReceived } from '#lib/local/emulators/chat-page.ts';
import { stack } from '#test/support/api.ts';
import { connectWebhook } from '#test/support/delivery.ts';
import { newForm } from '#test/support/forms.ts';
import { until } from '#test/support/poll.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

// The webhook case waits on the run's stream and queue, which the full suite keeps busy.
vi.setConfig({ testTimeout: 60_000 });

const unique = () => crypto.randomUUID().slice(0, 8);

/** `base` with its last path segment replaced: every test posts to its own address. */
function addressLike(base: string, token: string): string {
  return `${base.slice(0, base.lastIndexOf('/'))}/${token}`;
}

/** A POST over HTTPS trusting the receivers' certificate (as `curl --cacert` would). */
function post(url: string, body: string): Promise<{ status: number; text: string }> {
  const ca = readFileSync(stack().chat.certificateFile);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', ca, headers: { 'content-type': 'application/json' }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function receivedAt(path: string): Promise<ChatReceived[]> {
  const response = await fetch(stack().chat.messagesUrl);
  const { messages } = (await response.json()) as { messages: ChatReceived[] };
  return messages.filter((message) => message.path === path);
}

const HOSTILE = {
  formName: 'Sales <script>alert(1)</script> <!here>',
  answers: [
    {
      label: 'Message <b>',
      value: '<!channel> <@U0123ABCD> <https://evil.example|click> & @everyone',
    },
    {
      label: 'Markdown',
      value: '**bold** ||spoiler|| [x](https://evil.example) <@123456789012345678>',
    },
  ],
  submissionUrl: 'https://forms.example.com/app/forms/f/submissions/s',
  isTest: true,
  createdAt: '2026-03-04T05:06:07.089Z',
};

describe('the local Slack and Discord receivers', () => {
  it('are printed and written to dev.json as https://127.0.0.1 addresses, their page as http', () => {
    const { chat } = stack();
    expect(chat.slackUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/slack\/services\/\S+$/);
    expect(chat.discordUrl).toMatch(
      /^https:\/\/127\.0\.0\.1:\d+\/discord\/api\/webhooks\/\d+\/\S+$/,
    );
    expect(chat.pageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('take the service’s Slack and Discord messages as the services answer, and show them escaped on their page', async () => {
    const { chat } = stack();
    const slackUrl = addressLike(chat.slackUrl, `slack-${unique()}`);
    const discordUrl = addressLike(chat.discordUrl, `discord-${unique()}`);

    const slack = await post(slackUrl, JSON.stringify(slackMessage(HOSTILE)));
    expect(slack).toEqual({ status: 200, text: 'ok' });
    const discord = await post(discordUrl, JSON.stringify(discordMessage(HOSTILE)));
    expect(discord).toEqual({ status: 204, text: '' });

    const [slackKept] = await receivedAt(new URL(slackUrl).pathname);
    expect(slackKept).toMatchObject({ service: 'slack', status: 200, refused: null, mentions: [] });
    const [discordKept] = await receivedAt(new URL(discordUrl).pathname);
    expect(discordKept).toMatchObject({
      service: 'discord',
      status: 204,
      refused: null,
      mentions: [],
    });

    const page = await (await fetch(chat.pageUrl)).text();
    expect(page).toContain(`<p class="path">${new URL(slackUrl).pathname}</p>`);
    expect(page).toContain(`<p class="path">${new URL(discordUrl).pathname}</p>`);
    // Shown as the services would show them, escaped for HTML: text, never markup.
    expect(page).toContain(
      '&lt;!channel&gt; &lt;@U0123ABCD&gt; &lt;https://evil.example|click&gt; &amp; @everyone',
    );
    expect(page).toContain(
      '**bold** ||spoiler|| [x](https://evil.example) &lt;@123456789012345678&gt;',
    );
    expect(page).toContain('Sales &lt;script&gt;alert(1)&lt;/script&gt; &lt;!here&gt;');
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<b>');
  });

  it('refuse what Slack and Discord refuse, and say on the page what would have pinged', async () => {
    const { chat } = stack();
    const slackUrl = addressLike(chat.slackUrl, `slack-${unique()}`);
    const discordUrl = addressLike(chat.discordUrl, `discord-${unique()}`);
    expect(await post(slackUrl, 'not json')).toEqual({ status: 400, text: 'invalid_payload' });
    expect(await post(slackUrl, '{}')).toEqual({ status: 400, text: 'no_text' });
    const tooLong = await post(discordUrl, JSON.stringify({ content: 'c'.repeat(2001) }));
    expect(tooLong.status).toBe(400);
    expect(JSON.parse(tooLong.text)).toMatchObject({ code: 50035 });
    expect(await post(discordUrl, '{"content":"@everyone look"}')).toEqual({
      status: 204,
      text: '',
    });

    const kept = await receivedAt(new URL(discordUrl).pathname);
    expect(kept.map((message) => [message.status, message.mentions])).toEqual([
      [400, []],
      [204, ['@everyone']],
    ]);
    const page = await (await fetch(chat.pageUrl)).text();
    expect(page).toContain('Refused: invalid_payload: the body is not a JSON object');
    expect(page).toContain('Would notify people: @everyone');
  });

  it('answer a path ending fail-429 with 429 and Retry-After, as a throttled webhook', async () => {
    const url = addressLike(stack().chat.slackUrl, 'fail-429');
    expect(await post(url, '{"text":"x"}')).toEqual({ status: 429, text: 'rate_limited' });
  });

  it('are trusted by the stack’s own HTTPS client: a webhook pointed at one reaches it', async () => {
    const form = await newForm('pro');
    const url = addressLike(stack().chat.slackUrl, `webhook-${unique()}`);
    await connectWebhook(form, url);
    const sent = await submit(form.key, { json: { message: 'hello' }, from: freshVisitor() });
    expect(sent.status).toBe(200);
    // A webhook's body is not a Slack message: Slack's answer, as the real one would give it.
    const [kept] = await until(
      () => receivedAt(new URL(url).pathname),
      (messages) => messages.length > 0,
      { timeoutMs: 45_000, what: 'the webhook at the Slack receiver' },
    );
    expect(kept).toMatchObject({ status: 400, refused: 'no_text: neither text nor blocks' });
    expect(JSON.parse(kept?.body ?? '{}')).toMatchObject({ type: 'submission.created' });
  });
});
