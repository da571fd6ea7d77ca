import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stack } from '#test/support/api.ts';
import { launchChromium, siteServing } from '#test/support/browser.ts';
import { newForm, storedItems } from '#test/support/forms.ts';

// A real Chromium posts from a page on another origin (localhost:<port>) to
// the gateway (127.0.0.1:<port>), as a customer's website would.
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

interface StoredItem {
  data: Record<string, string>;
  meta: { referrer?: string; files?: unknown[] };
}

async function onlyStored(formId: string): Promise<StoredItem> {
  const items = await storedItems(formId);
  expect(items).toHaveLength(1);
  return items[0] as unknown as StoredItem;
}

const submitUrl = (key: string) => `${stack().baseUrl}/s/${key}`;

async function visit(pages: Record<string, string>, path: string) {
  const site = await siteServing(pages);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${site.origin}${path}`);
  return {
    page,
    site,
    close: async () => {
      await context.close();
      await site.close();
    },
  };
}

describe('a browser posting a form from another origin', () => {
  it('an urlencoded form lands on the thank-you page and is stored', async () => {
    const form = await newForm('free');
    const visit1 = await visit(
      {
        '/contact': `<form method="post" action="${submitUrl(form.key)}">
          <input name="name" value="Ada"><textarea name="message">Hello from a browser</textarea>
          <input type="text" name="_gotcha" style="display:none">
          <button>Send</button></form>`,
      },
      '/contact',
    );
    try {
      await Promise.all([visit1.page.waitForURL(submitUrl(form.key)), visit1.page.click('button')]);
      expect(await visit1.page.locator('h1').textContent()).toBe('Thank you!');
      // The page links back to the site that posted. Chromium's default policy
      // (strict-origin-when-cross-origin) sends only the origin as Referer on a
      // cross-origin post, so that is what the link and meta.referrer hold.
      expect(await visit1.page.locator('a').getAttribute('href')).toBe(`${visit1.site.origin}/`);
      const stored = await onlyStored(form.id);
      expect(stored.data).toEqual({ name: 'Ada', message: 'Hello from a browser' });
      expect(stored.meta.referrer).toBe(`${visit1.site.origin}/`);
    } finally {
      await visit1.close();
    }
  });

  it('a multipart form with a file is stored with the file, and an empty file input is ignored', async () => {
    const form = await newForm('pro', { allowUploads: true });
    const visit1 = await visit(
      {
        '/apply': `<form method="post" enctype="multipart/form-data" action="${submitUrl(form.key)}">
          <input name="name" value="Grace"><input type="file" name="cv"><input type="file" name="other">
          <button>Apply</button></form>`,
      },
      '/apply',
    );
    try {
      await visit1.page.setInputFiles('input[name=cv]', {
        name: 'cv.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('COBOL, compilers, and a moth.'),
      });
      await Promise.all([visit1.page.waitForURL(submitUrl(form.key)), visit1.page.click('button')]);
      expect(await visit1.page.locator('h1').textContent()).toBe('Thank you!');
      const stored = await onlyStored(form.id);
      expect(stored.data).toEqual({ name: 'Grace' });
      expect(stored.meta.files).toEqual([expect.objectContaining({ name: 'cv.txt', size: 29 })]);
    } finally {
      await visit1.close();
    }
  });

  it('fetch with a JSON body passes the CORS preflight and reads the JSON answer', async () => {
    const form = await newForm('free');
    const visit1 = await visit({ '/app': '<p>single-page app</p>' }, '/app');
    try {
      const answer = await visit1.page.evaluate(async (url) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ email: 'ada@example.com', note: 'from fetch' }),
        });
        return {
          status: response.status,
          body: await response.json(),
          requestId: response.headers.get('x-request-id'),
        };
      }, submitUrl(form.key));
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ ok: true, submissionId: expect.any(String) });
      // Exposed to scripts by Access-Control-Expose-Headers.
      expect(answer.requestId).toMatch(/./);
      const stored = await onlyStored(form.id);
      expect(stored.data).toEqual({ email: 'ada@example.com', note: 'from fetch' });
    } finally {
      await visit1.close();
    }
  });

  it('a refusal reaches the script as JSON with its code (CORS headers on errors too)', async () => {
    const form = await newForm('free');
    const visit1 = await visit({ '/app': '<p>app</p>' }, '/app');
    try {
      const answer = await visit1.page.evaluate(async (url) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ blank: '   ' }),
        });
        return { status: response.status, body: await response.json() };
      }, submitUrl(form.key));
      expect(answer).toEqual({
        status: 422,
        body: expect.objectContaining({ ok: false, error: 'empty_submission' }),
      });
    } finally {
      await visit1.close();
    }
  });

  it("a Pro form in redirect mode sends the browser to the owner's page", async () => {
    const site = await siteServing({ '/thanks': '<h1>Custom thanks</h1>' });
    const form = await newForm('pro', {
      completionMode: 'redirect',
      redirectUrl: `${site.origin}/thanks`,
    });
    const visit1 = await visit(
      {
        '/contact': `<form method="post" action="${submitUrl(form.key)}">
          <input name="name" value="Lin"><button>Send</button></form>`,
      },
      '/contact',
    );
    try {
      await Promise.all([
        visit1.page.waitForURL(`${site.origin}/thanks`),
        visit1.page.click('button'),
      ]);
      expect(await visit1.page.locator('h1').textContent()).toBe('Custom thanks');
      expect(await storedItems(form.id)).toHaveLength(1);
    } finally {
      await visit1.close();
      await site.close();
    }
  });
});
