import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible, reloadUntil } from '#test/support/dashboard.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

/**
 * The summary screen's funnel (docs/analytics.md#the-funnel): drawn for a
 * form with pages from the beacons the page sends, as a table a screen
 * reader reads (step, count, share of views); not drawn for a one-page form.
 */

vi.setConfig({ testTimeout: 120_000 });

/** Git-ignored (`.local/`): screenshots for a human to look at, not committed. */
const OUTPUT_DIR = new URL('../../.local/test-output/', import.meta.url);
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

let browser: Browser;
let owner: Awaited<ReturnType<typeof teamWithOwner>>;

async function formOf(body: Record<string, unknown>) {
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: body.name, type: 'custom' },
  });
  expect(created.status, created.text).toBe(201);
  const patched = await api('PATCH', `/v1/forms/${created.body.id}`, {
    key: owner.apiKey,
    body: { fields: body.fields, ...(body.pages ? { pages: body.pages } : {}) },
  });
  expect(patched.status, patched.text).toBe(200);
  return { id: created.body.id as string, key: created.body.key as string };
}

/** The page's beacons, as sendBeacon posts them: a view, then each step. */
async function visit(key: string, ...reached: string[]) {
  const from = freshVisitor();
  for (const query of ['', ...reached.map((step) => `?reached=${step}`)]) {
    const sent = await submit(key, {
      path: `/f/${key}/views${query}`,
      from,
      headers: { 'user-agent': FIREFOX },
    });
    expect(sent.status, sent.text).toBe(204);
  }
  return from;
}

const FIELDS = [
  { id: 'kind', type: 'radio', label: 'Who for', options: ['Personal', 'Business'] },
  { id: 'company', type: 'text', label: 'Company' },
  { id: 'message', type: 'textarea', label: 'Message' },
];

beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(OUTPUT_DIR, { recursive: true });
  owner = await teamWithOwner('free');
});
afterAll(async () => {
  await browser.close();
});

describe('the summary’s funnel', () => {
  it('draws the steps of a form with pages as a table: step, count, share of views; axe-clean', async () => {
    const form = await formOf({
      name: 'Quote request',
      fields: FIELDS,
      pages: [
        { id: 'about', fields: ['kind'] },
        { id: 'business', title: 'Your company', fields: ['company'] },
        { id: 'done', fields: ['message'] },
      ],
    });
    // Four page loads: one only looks, three start; two reach page 2, one reaches page 3 and sends.
    await visit(form.key);
    await visit(form.key, 'started');
    await visit(form.key, 'started', '2');
    const sender = await visit(form.key, 'started', '2', '3');
    const sent = await submit(form.key, {
      form: { kind: 'Business', company: 'Acme', message: 'Hi', _views: 'counted' },
      from: sender,
      headers: { 'user-agent': FIREFOX },
    });
    expect(sent.status, sent.text).toBe(200);

    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${form.id}/summary`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Quote request: summary' }).waitFor();
      const funnel = page.getByRole('region', { name: 'Funnel' });
      const rowOf = (step: string) =>
        funnel
          .getByRole('row')
          .filter({ has: page.getByRole('rowheader', { name: step, exact: true }) });
      // The screen draws once its reads are back: wait for the row, then read its cells.
      const cells = async (step: string) => {
        await rowOf(step).waitFor();
        const texts = await rowOf(step).getByRole('cell').allTextContents();
        return texts.map((text) => text.replace(/\s/g, ' '));
      };
      // The send reaches the summary through the table stream: reload until it has.
      await reloadUntil(page, () => cells('Sent'), ['1', '25 %']);
      expect(await funnel.getByRole('columnheader').allTextContents()).toEqual([
        'Step',
        'Count',
        'Share of views',
      ]);
      expect(await cells('Views')).toEqual(['4', '100 %']);
      expect(await cells('Started')).toEqual(['3', '75 %']);
      expect(await cells('Reached step 2: Your company')).toEqual(['2', '50 %']);
      expect(await cells('Reached step 3')).toEqual(['1', '25 %']);
      expect(await funnel.getByRole('row').count()).toBe(6);
      await expectAccessible(page, 'summary with a funnel');
      await page.screenshot({
        path: new URL('summary-funnel.png', OUTPUT_DIR).pathname,
        fullPage: true,
      });
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }

    // On a phone in dark mode: the table fits without sideways scrolling, axe-clean.
    const phone = await dashboardAs(browser, owner.email, {
      path: `/forms/${form.id}/summary`,
      width: 375,
      dark: true,
    });
    try {
      await phone.page.getByRole('region', { name: 'Funnel' }).waitFor();
      await expectAccessible(phone.page, 'summary with a funnel, dark, 375 px');
      expect(
        await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      await phone.page.screenshot({
        path: new URL('summary-funnel-375-dark.png', OUTPUT_DIR).pathname,
        fullPage: true,
      });
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.close();
    }
  });

  it('draws no funnel for a form of one page', async () => {
    const form = await formOf({ name: 'One page', fields: FIELDS });
    await visit(form.key, 'started');
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${form.id}/summary`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'One page: summary' }).waitFor();
      await page.getByRole('img', { name: /Views each day/ }).waitFor();
      expect(await page.getByRole('heading', { name: 'Funnel' }).count()).toBe(0);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
