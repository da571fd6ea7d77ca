import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { chromiumForFile, offMachine, siteServing } from '#test/support/browser.ts';
import {
  dashboardAs,
  expectAccessible,
  reloadUntil,
  summaryFact,
} from '#test/support/dashboard.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { localStore } from '#test/support/store.ts';

/**
 * The pasted HTML form counts its views without script (docs/analytics.md#views):
 * copied from the Share screen into a page on another local origin, loaded
 * (its image counts the view) and posted through; the summary's conversion
 * is then 100 %. A form whose posts outnumber its views (pasted before it
 * carried the image) shows no rate, but why. Axe-clean, 375 px dark too.
 */

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();
const OUTPUT_DIR = new URL('../../.local/test-output/', import.meta.url);
mkdirSync(OUTPUT_DIR, { recursive: true });

const sitePage = (body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A customer's site</title><link rel="icon" href="data:,"></head>
<body><main><h1>Ask for a quote</h1>
${body}
</main></body></html>`;

async function shareSnippet(browser: Browser, email: string, formId: string): Promise<string> {
  const dashboard = await dashboardAs(browser, email, { path: `/forms/${formId}/share` });
  try {
    const field = dashboard.page.getByLabel('HTML form', { exact: true });
    await field.waitFor();
    return await field.inputValue();
  } finally {
    await dashboard.close();
  }
}

async function quoteForm() {
  const owner = await teamWithOwner('pro');
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: 'Quotes', type: 'custom' },
  });
  const formId = created.body.id as string;
  await api('PATCH', `/v1/forms/${formId}`, {
    key: owner.apiKey,
    body: { fields: [{ id: 'name', type: 'text', label: 'Name', required: true }] },
  });
  return { owner, formId };
}

describe('the pasted HTML form counts its views', () => {
  it('loaded on another website, its image counts a view; a post through it makes the conversion 100 %', async () => {
    const { owner, formId } = await quoteForm();
    const snippet = await shareSnippet(chromium(), owner.email, formId);
    expect(snippet).toContain(`${stack().baseUrl}/f/`);
    expect(snippet).toContain('name="_views"');
    const served = await siteServing({ '/quote': sitePage(snippet) });
    // A person's browser: headless Chromium's own User-Agent is a robot's, whose views never count.
    const context = await chromium().newContext({
      viewport: { width: 900, height: 900 },
      userAgent:
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    try {
      const viewed = page.waitForResponse((response) => response.url().endsWith('/views'));
      await page.goto(`${served.origin}/quote`);
      expect((await viewed).status()).toBe(200);
      await page.getByLabel('Name').fill('Ada Lovelace');
      await page.waitForFunction(() => performance.now() > 2100);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
      expect(offMachine(requests)).toEqual([]);
    } finally {
      await context.close();
      await served.close();
    }

    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/summary`,
    });
    try {
      const { page: summary } = dashboard;
      await reloadUntil(summary, () => summaryFact(summary, 'Submissions').textContent(), '1');
      expect(await summaryFact(summary, 'Views').textContent()).toBe('1');
      expect(await summaryFact(summary, 'Conversion').textContent()).toBe('100 %');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  for (const view of [
    { width: 1280, dark: false },
    { width: 375, dark: true },
  ]) {
    it(`more posts than views shows no rate: “Views not counted for the pasted form”, and why (${view.width} px)`, async () => {
      await localStore();
      const { owner, formId } = await quoteForm();
      // Eleven posts of a form pasted before it carried its image, and three views.
      await seedSubmissions({ formId, teamId: owner.teamId, count: 11 });
      const key = (await api('GET', `/v1/forms/${formId}`, { key: owner.apiKey })).body
        .key as string;
      for (let i = 0; i < 3; i++) {
        await fetch(`${stack().baseUrl}/f/${key}/views`, {
          headers: { 'user-agent': `Mozilla/5.0 (X11; Linux x86_64) Firefox/14${i}.0` },
        });
      }
      const dashboard = await dashboardAs(chromium(), owner.email, {
        path: `/forms/${formId}/summary`,
        ...view,
      });
      const { page } = dashboard;
      try {
        await reloadUntil(page, () => summaryFact(page, 'Submissions').textContent(), '11');
        expect(await summaryFact(page, 'Views').textContent()).toBe('3');
        expect(await summaryFact(page, 'Conversion').textContent()).toBe('Not counted');
        const note = await page.locator('.conversion-note').textContent();
        expect(note).toMatch(/^Views not counted for the pasted form: /);
        expect(note).toContain('Paste it again from Share to count them.');
        expect(await page.getByText('366.7').count()).toBe(0);
        await expectAccessible(page, `a summary without a rate at ${view.width} px`);
        await page.screenshot({
          path: new URL(`dashboard-conversion-${view.width}.png`, OUTPUT_DIR).pathname,
        });
        expect(dashboard.errors).toEqual([]);
      } finally {
        await dashboard.close();
      }
    });
  }
});
