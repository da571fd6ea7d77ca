import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stack } from '#test/support/api.ts';
import { launchChromium, offMachine, siteServing, visit } from '#test/support/browser.ts';
import { newForm, storedItems } from '#test/support/forms.ts';

/**
 * The hosted page and the embed send an `Idempotency-Key` with each post
 * (docs/submit.md#the-hosted-page-and-the-embed): a double click, or Send
 * pressed again after an answer was lost, stores one submission.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const submitUrl = (key: string) => `${stack().baseUrl}/s/${key}`;

async function fillContact(page: Page, message: string) {
  await page.getByLabel('Name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Message').fill(message);
}

/** The posts the page sent to the form's endpoint, as they happen. */
function postsTo(page: Page, key: string): Request[] {
  const posts: Request[] = [];
  page.on('request', (request) => {
    if (request.url() === submitUrl(key) && request.method() === 'POST') posts.push(request);
  });
  return posts;
}

const keyOf = async (request: Request) => (await request.allHeaders())['idempotency-key'];

describe('posting twice from the hosted page and the embed stores once', () => {
  it('the hosted page: a double click on Send stores one submission, posted with a key', async () => {
    const form = await newForm('free', {}, { name: 'Double click', type: 'contact' });
    const opened = await visit(browser, `${stack().baseUrl}/f/${form.key}`);
    try {
      const { page } = opened;
      const posts = postsTo(page, form.key);
      await fillContact(page, 'Pressed twice');
      await page.getByRole('button', { name: 'Send' }).dblclick();
      await page.getByText('Your submission has been received.').waitFor();
      expect(await storedItems(form.id)).toHaveLength(1);
      expect(posts.length).toBeGreaterThanOrEqual(1);
      const keys = new Set(await Promise.all(posts.map(keyOf)));
      expect([...keys]).toHaveLength(1);
      expect([...keys][0]).toMatch(/^[0-9a-f]{32}$/);
      expect(opened.errors).toEqual([]);
    } finally {
      await opened.close();
    }
  });

  it('the hosted page: Send pressed again after a lost answer sends the same key and stores once', async () => {
    const form = await newForm('free', {}, { name: 'Lost answer', type: 'contact' });
    const opened = await visit(browser, `${stack().baseUrl}/f/${form.key}`);
    try {
      const { page } = opened;
      const posts = postsTo(page, form.key);
      // The first post reaches the endpoint and is stored; its answer never reaches the page.
      let stored: Record<string, unknown> | undefined;
      await page.route(submitUrl(form.key), async (route) => {
        const response = await route.fetch();
        stored = await response.json();
        await route.abort('connectionreset');
      });
      await fillContact(page, 'Answer lost on the way');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText('The form could not be sent: check your connection').waitFor();
      expect(stored?.submissionId).toEqual(expect.any(String));
      expect(await storedItems(form.id)).toHaveLength(1);

      await page.unroute(submitUrl(form.key));
      const answered = page.waitForResponse(
        (response) =>
          response.url() === submitUrl(form.key) && response.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Send' }).click();
      const replay = await answered;
      expect(await replay.json()).toEqual({ ok: true, submissionId: stored?.submissionId });
      expect(await replay.headerValue('idempotent-replayed')).toBe('true');
      await page.getByText('Your submission has been received.').waitFor();
      expect(await storedItems(form.id)).toHaveLength(1);
      expect(posts).toHaveLength(2);
      expect(await keyOf(posts[1]!)).toBe(await keyOf(posts[0]!));
    } finally {
      await opened.close();
    }
  });

  it('the hosted page: new answers after a failure get a new key', async () => {
    const form = await newForm('free', {}, { name: 'New answers', type: 'contact' });
    const opened = await visit(browser, `${stack().baseUrl}/f/${form.key}`);
    try {
      const { page } = opened;
      const posts = postsTo(page, form.key);
      await page.route(submitUrl(form.key), (route) => route.abort('connectionreset'));
      await fillContact(page, 'First words');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText('The form could not be sent: check your connection').waitFor();
      await page.unroute(submitUrl(form.key));
      await page.getByLabel('Message').fill('Second thoughts');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText('Your submission has been received.').waitFor();
      expect(posts).toHaveLength(2);
      expect(await keyOf(posts[1]!)).not.toBe(await keyOf(posts[0]!));
      const items = await storedItems(form.id);
      expect(items.map((item) => (item.data as Record<string, string>).message)).toEqual([
        'Second thoughts',
      ]);
    } finally {
      await opened.close();
    }
  });

  it('the embed on another website: a double click on Send stores one submission, its key allowed by CORS', async () => {
    const pages: Record<string, string> = {};
    const served = await siteServing(pages);
    const form = await newForm(
      'free',
      { allowedOrigins: [served.origin] },
      { name: 'Embedded double click', type: 'contact' },
    );
    pages['/contact'] = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A customer's site</title><link rel="icon" href="data:,"></head>
<body><main><h1>Contact us</h1>
<script src="${stack().baseUrl}/embed.js" data-form="${form.key}" async></script>
</main></body></html>`;
    const opened = await visit(browser, `${served.origin}/contact`);
    try {
      const { page } = opened;
      const posts = postsTo(page, form.key);
      await page.getByRole('heading', { name: 'Embedded double click' }).waitFor();
      await fillContact(page, 'Pressed twice in the embed');
      await page.getByRole('button', { name: 'Send' }).dblclick();
      await page.getByText('Your submission has been received.').waitFor();
      expect(await storedItems(form.id)).toHaveLength(1);
      const keys = new Set(await Promise.all(posts.map(keyOf)));
      expect([...keys]).toHaveLength(1);
      expect([...keys][0]).toMatch(/^[0-9a-f]{32}$/);
      expect((await posts[0]!.allHeaders()).origin).toBe(served.origin);
      expect(offMachine(opened.requests)).toEqual([]);
      expect(opened.errors).toEqual([]);
    } finally {
      await opened.close();
      await served.close();
    }
  });
});
