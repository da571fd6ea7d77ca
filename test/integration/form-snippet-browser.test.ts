import type { Browser, Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { chromiumForFile, offMachine, PAGE_WAIT_MS, siteServing } from '#test/support/browser.ts';
import { shareSnippet } from '#test/support/dashboard.ts';
import { submit } from '#test/support/submit.ts';

/**
 * In Chromium, on a website of another origin: the HTML form copied from the
 * dashboard's Share screen (docs/uploads-and-pages.md#the-html-form), pasted into a
 * page as a person would, and a visitor whose clock runs 90 s fast posting
 * through that form, the hosted page and the embed
 * (docs/submit.md#the-fill-time-check). Answers are read back through
 * the API. No request may leave this machine.
 */

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();

const sitePage = (body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A customer's site</title><link rel="icon" href="data:,"></head>
<body><main><h1>Write to us</h1>
${body}
</main></body></html>`;

/** Shifts the page's wall clock (Date) by `offsetMs`, before any of its scripts run; timers keep real time. */
const shiftedClock = (offsetMs: number) => `(() => {
  const Real = Date;
  const now = () => Real.now() + ${offsetMs};
  class Shifted extends Real {
    constructor(...args) { if (args.length === 0) super(now()); else super(...args); }
    static now() { return now(); }
  }
  globalThis.Date = Shifted;
})();`;

/** A page of its own context, its clock shifted by `offsetMs`, recording requests and errors. */
async function openAt(browser: Browser, url: string, offsetMs = 0) {
  const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
  if (offsetMs !== 0) await context.addInitScript(shiftedClock(offsetMs));
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_WAIT_MS);
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(url);
  return { page, requests, errors, close: () => context.close() };
}

/** A person takes more than 2 s: a post sooner after drawing is dropped as a bot. */
const afterFillTime = (page: Page) => page.waitForFunction(() => performance.now() > 2100);

async function storedAnswers(formId: string, apiKey: string) {
  const listed = await api('GET', `/v1/forms/${formId}/submissions?pageSize=100`, {
    key: apiKey,
  });
  expect(listed.status, listed.text).toBe(200);
  return (listed.body.items as { data: Record<string, string> }[]).map((item) => item.data);
}

describe('the HTML form from the Share screen, pasted into another website', () => {
  it('is the form: the browser holds back what the fields refuse, then every answer posts and reads back through the API', async () => {
    const owner = await teamWithOwner('pro');
    const created = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Pasted', type: 'custom' },
    });
    const formId = created.body.id as string;
    const patched = await api('PATCH', `/v1/forms/${formId}`, {
      key: owner.apiKey,
      body: {
        fields: [
          { id: 'name', type: 'text', label: 'Name', required: true, minLength: 2 },
          { id: 'code', type: 'text', label: 'Member code', pattern: '[A-Z]{3}-[0-9]{2}' },
          { id: 'size', type: 'select', label: 'Size', options: ['S', 'M', 'L'], required: true },
          { id: 'when', type: 'radio', label: 'When', options: ['Day', 'Night'], required: true },
          { id: 'likely', type: 'rating', label: 'How likely', min: 0, max: 10, required: true },
          { id: 'guests', type: 'number', label: 'Guests', min: 0, max: 20 },
          { id: 'about', type: 'textarea', label: 'About', maxLength: 20 },
          { id: 'terms', type: 'checkbox', label: 'I agree', required: true },
        ],
      },
    });
    expect(patched.status, patched.text).toBe(200);
    const snippet = await shareSnippet(chromium(), owner.email, formId);
    const served = await siteServing({ '/contact': sitePage(snippet) });
    const visit = await openAt(chromium(), `${served.origin}/contact`);
    try {
      const { page } = visit;
      const endpoint = `${stack().baseUrl}/s/`;
      const posts = () => visit.requests.filter((url) => url.startsWith(endpoint)).length;
      const invalid = (name: string) =>
        page
          .locator(`[name="${name}"]`)
          .first()
          .evaluate((el) => !(el as HTMLInputElement).checkValidity());

      // Nothing chosen is an answer to nothing: the browser stops the post.
      await page.getByRole('button', { name: 'Send' }).click();
      for (const name of ['name', 'size', 'when', 'likely', 'terms']) {
        expect(await invalid(name), `${name} is required`).toBe(true);
      }
      await page.getByLabel('Name').fill('A');
      await page.getByLabel('Member code').fill('abc');
      await page.getByLabel('Guests').fill('21');
      expect(await invalid('code'), 'pattern').toBe(true);
      expect(await invalid('guests'), 'max').toBe(true);
      expect(await page.getByLabel('About').getAttribute('maxlength')).toBe('20');
      expect(posts(), 'no post while a field is refused').toBe(0);
      // The select starts blank, the rating offers 0 to 10.
      expect(await page.getByLabel('Size').inputValue()).toBe('');
      expect(
        await page
          .getByRole('group', { name: /How likely/ })
          .getByRole('radio')
          .evaluateAll((radios) => radios.map((r) => (r as HTMLInputElement).value)),
      ).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);

      await page.getByLabel('Name').fill('Ada Lovelace');
      await page.getByLabel('Member code').fill('ABC-12');
      await page.getByLabel('Size').selectOption('M');
      await page.getByLabel('Night').check();
      await page.getByLabel('0 of 10', { exact: true }).check();
      await page.getByLabel('Guests').fill('3');
      await page.getByLabel('About').fill('Hello');
      await page.getByLabel('I agree').check();
      await afterFillTime(page);
      const answered = page.waitForResponse(
        (response) => response.url().startsWith(endpoint) && response.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Send' }).click();
      expect((await answered).status()).toBe(200);
      await page.getByRole('heading', { name: 'Thank you!' }).waitFor();

      expect(await storedAnswers(formId, owner.apiKey)).toEqual([
        {
          name: 'Ada Lovelace',
          code: 'ABC-12',
          size: 'M',
          when: 'Night',
          likely: '0',
          guests: '3',
          about: 'Hello',
          terms: 'yes',
        },
      ]);
      expect(offMachine(visit.requests)).toEqual([]);
      expect(visit.errors).toEqual([]);
    } finally {
      await visit.close();
      await served.close();
    }
  });
});

describe('a visitor whose clock runs 90 s fast', () => {
  it('loses no post: through the pasted HTML form, the hosted page and the embed, each is stored', async () => {
    const owner = await teamWithOwner('free');
    const created = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Clocks', type: 'contact' },
    });
    const formId = created.body.id as string;
    const key = created.body.key as string;
    const snippet = await shareSnippet(chromium(), owner.email, formId);
    const pages: Record<string, string> = {
      '/pasted': sitePage(snippet),
      '/embedded': sitePage(
        `<script src="${stack().baseUrl}/embed.js" data-form="${key}" async></script>`,
      ),
    };
    const served = await siteServing(pages);
    const fill = async (page: Page, message: string) => {
      await page.getByLabel('Name').fill('Grace');
      await page.getByLabel('Email').fill('grace@example.com');
      await page.getByLabel('Message').fill(message);
    };
    try {
      // The pasted form stamps _t from the visitor's clock: 90 s ahead of the server.
      const pasted = await openAt(chromium(), `${served.origin}/pasted`, 90_000);
      try {
        const { page } = pasted;
        expect(await page.evaluate(() => Date.now() - performance.timeOrigin)).toBeGreaterThan(
          85_000,
        );
        await fill(page, 'from the pasted form');
        await afterFillTime(page);
        await page.getByRole('button', { name: 'Send' }).click();
        await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
      } finally {
        await pasted.close();
      }
      // The hosted page and the embed stamp _t from the server's clock.
      for (const [url, message] of [
        [`${stack().baseUrl}/f/${key}`, 'from the hosted page'],
        [`${served.origin}/embedded`, 'from the embed'],
      ] as const) {
        const visit = await openAt(chromium(), url, 90_000);
        try {
          await fill(visit.page, message);
          await visit.page.getByRole('button', { name: 'Send' }).click();
          await visit.page.getByText('Your submission has been received.').waitFor();
          expect(visit.errors, url).toEqual([]);
        } finally {
          await visit.close();
        }
      }
      const stored = await storedAnswers(formId, owner.apiKey);
      expect(stored.map((data) => data.message).sort()).toEqual([
        'from the embed',
        'from the hosted page',
        'from the pasted form',
      ]);
    } finally {
      await served.close();
    }
  });
});

describe('the pasted form refused for too many posts', () => {
  it('its page says the way back (the back button keeps the answers) and when to try again, whatever the site’s referrer policy', async () => {
    const owner = await teamWithOwner('pro');
    const created = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Busy', type: 'contact' },
    });
    const key = created.body.key as string;
    const snippet = await shareSnippet(chromium(), owner.email, created.body.id as string);
    const served = await siteServing({
      '/contact': sitePage(snippet),
      // A site that sends no Referer at all: the refusal page cannot link back.
      '/private': sitePage(snippet).replace(
        '<meta charset="utf-8">',
        '<meta charset="utf-8"><meta name="referrer" content="no-referrer">',
      ),
    });
    // The burst and the posts in one minute window (windows start on the minute).
    await expect.poll(() => Date.now() % 60_000, { timeout: 20_000 }).toBeLessThan(40_000);
    let status = 0;
    for (let i = 0; i < 40 && status !== 429; i++) {
      status = (await submit(key, { json: { name: `Burst ${i}`, email: 'b@example.com' } })).status;
    }
    expect(status, 'this visitor (127.0.0.1, as the browser) met the limit').toBe(429);
    try {
      for (const [path, link] of [
        ['/contact', `Go to ${new URL(served.origin).host}`],
        ['/private', undefined],
      ] as const) {
        const visit = await openAt(chromium(), `${served.origin}${path}`);
        try {
          const { page } = visit;
          await page.getByLabel('Name').fill('Ada Lovelace');
          await page.getByLabel('Email').fill('ada@example.com');
          await page.getByLabel('Message').fill('Kept when I go back');
          await afterFillTime(page);
          await page.getByRole('button', { name: 'Send' }).click();
          await page.getByRole('heading', { name: 'Too many submissions' }).waitFor();
          await page
            .getByText(
              /^Wait (a few seconds|about \d+ seconds|about a minute), then send the form again\.$/,
            )
            .waitFor();
          await page
            .getByText(
              'Your browser’s back button returns to the form, with what you typed still in it.',
              {
                exact: false,
              },
            )
            .waitFor();
          expect(await page.getByRole('link').allTextContents()).toEqual(link ? [link] : []);
          // What it says is so: back is the form, the answers in it.
          await page.goBack();
          await expect
            .poll(() => page.getByLabel('Message').inputValue())
            .toBe('Kept when I go back');
          expect(new URL(page.url()).pathname).toBe(path);
        } finally {
          await visit.close();
        }
      }
    } finally {
      await served.close();
    }
  });
});
