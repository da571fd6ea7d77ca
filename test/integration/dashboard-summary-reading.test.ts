import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import {
  dashboardAs,
  expectAccessible,
  reloadUntil,
  summaryFact,
} from '#test/support/dashboard.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

vi.setConfig({ testTimeout: 120_000 });

const DAY = 86_400_000;
/** An answer longer than the quote's bound (280 characters): words of 7 to 12 letters. */
const LONG = Array.from({ length: 40 }, (_, i) => `paragraph${i}`).join(' ');

let browser: Browser;
let owner: Awaited<ReturnType<typeof teamWithOwner>>;
let formId: string;
let yesterday: string;
/** Newest first. */
let ids: string[];

beforeAll(async () => {
  browser = await launchChromium();
  await localStore();
  owner = await teamWithOwner('pro');
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: 'Workshop feedback', type: 'feedback' },
  });
  formId = created.body.id as string;
  // Three answers yesterday (UTC): one day of ratings, the only day of the range below.
  yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
  const noon = new Date(`${yesterday}T12:00:00Z`);
  ({ ids } = await seedSubmissions({
    formId,
    teamId: owner.teamId,
    count: 3,
    receivedAt: (i) => new Date(noon.getTime() + i * 60_000),
    data: (i) =>
      [
        { rating: '4', message: 'Clear and useful' },
        { rating: '5', message: '' },
        { rating: '3', message: `${LONG}\n\n  the end` },
      ][i]!,
  }));
  // A robot's post, dropped by the honeypot today.
  const dropped = await submit(created.body.key as string, {
    json: { rating: '5', _gotcha: 'bot' },
    from: freshVisitor(),
  });
  expect(dropped.body).toEqual({ ok: true });
});
afterAll(async () => {
  await browser.close();
});

describe('the summary, read by a person', () => {
  it('draws the one day of a one-day range as a visible point on the rating trend', async () => {
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${formId}/summary?from=${yesterday}&to=${yesterday}`,
      timezoneId: 'UTC',
    });
    const { page } = dashboard;
    try {
      await reloadUntil(page, () => summaryFact(page, 'Submissions').textContent(), '3');
      const trend = page.getByRole('figure').filter({ hasText: 'Average rating each day' });
      await trend.getByRole('img', { name: /Average rating each day: line chart/ }).waitFor();
      const point = trend.locator('.dot');
      await expect.poll(() => point.count()).toBe(1);
      expect(await point.isVisible()).toBe(true);
      const box = (await point.boundingBox())!;
      const picture = (await trend.getByRole('img').boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(6);
      expect(box.height).toBeGreaterThanOrEqual(6);
      // Inside the picture, at the height of 4 on a scale of 5.
      expect(box.x).toBeGreaterThan(picture.x);
      expect(box.x + box.width).toBeLessThan(picture.x + picture.width);
      const middle = box.y + box.height / 2 - picture.y;
      expect(middle / picture.height).toBeCloseTo(1 - (4 / 5) * 0.975, 1);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('over 30 days with one day rated draws that day as a point, says why posts were dropped in words, and shows the latest text answers as quotes linking to their submissions', async () => {
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${formId}/summary`,
      timezoneId: 'UTC',
    });
    const { page } = dashboard;
    try {
      await reloadUntil(page, () => summaryFact(page, 'Dropped').textContent(), '1');
      // Thirty days with ratings on one of them: that day is a point too.
      const trend = page.getByRole('figure').filter({ hasText: 'Average rating each day' });
      expect(await trend.locator('.dot').count()).toBe(1);
      expect((await trend.locator('.dot').boundingBox())!.width).toBeGreaterThanOrEqual(6);
      const drops = page
        .getByRole('table')
        .filter({ has: page.getByRole('columnheader', { name: 'Why it was not kept' }) });
      expect(await drops.getByRole('rowheader').allTextContents()).toEqual([
        'Filled in the hidden field only robots see',
      ]);
      const text = (await page.locator('main').textContent()) ?? '';
      for (const key of ['honeypot', 'fillTime', 'blockedIp', 'spamCap', '(other)', 'desktop'])
        expect(text).not.toContain(key);

      const latest = page.getByRole('region', { name: 'Latest text answers' });
      const quotes = latest.getByRole('listitem');
      await expect.poll(() => quotes.count()).toBe(2);
      // Newest first: the long answer, cut after a whole word, then the short one whole.
      const long = (await quotes.nth(0).locator('blockquote').textContent())!;
      expect(long.endsWith('…')).toBe(true);
      expect(long.length).toBeLessThanOrEqual(281);
      const kept = long.slice(0, -1);
      expect(LONG.startsWith(kept)).toBe(true);
      expect(LONG[kept.length]).toBe(' ');
      expect(await quotes.nth(1).locator('blockquote').textContent()).toBe('Clear and useful');
      // Wrapped within the page: nothing wider than its box.
      expect(
        await quotes
          .nth(0)
          .locator('blockquote')
          .evaluate((quote) => quote.scrollWidth - quote.clientWidth),
      ).toBeLessThanOrEqual(0);
      await expectAccessible(page, 'summary with drops and quotes');

      await quotes
        .nth(0)
        .getByRole('link', { name: /^received/ })
        .click();
      await expect
        .poll(() => new URL(page.url()).pathname)
        // The dashboard's own path, under its base.
        .toMatch(new RegExp(`/forms/${formId}/submissions/${ids[0]}$`));
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('latest text answers quote the long-text answers only, never a name or an address', async () => {
    const created = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Quote requests', type: 'custom' },
    });
    const form = { id: created.body.id as string, key: created.body.key as string };
    await api('PATCH', `/v1/forms/${form.id}`, {
      key: owner.apiKey,
      body: {
        fields: [
          { id: 'name', type: 'text', label: 'Your name' },
          { id: 'street', type: 'text', label: 'Street address' },
          { id: 'email', type: 'email', label: 'Email' },
          { id: 'details', type: 'textarea', label: 'What needs doing?' },
        ],
      },
    });
    const posted = await submit(form.key, {
      json: {
        name: 'Ada Lovelace',
        street: '12 Baker Street, London',
        email: 'ada@example.com',
        details: 'Two rooms to paint before March',
      },
      from: freshVisitor(),
    });
    expect(posted.status, posted.text).toBe(200);
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${form.id}/summary`,
    });
    const { page } = dashboard;
    try {
      const latest = page.getByRole('region', { name: 'Latest text answers' });
      const quotes = latest.getByRole('listitem');
      await expect.poll(() => quotes.count()).toBe(1);
      expect(await quotes.locator('blockquote').textContent()).toBe(
        'Two rooms to paint before March',
      );
      expect(await quotes.locator('figcaption').textContent()).toMatch(
        /^What needs doing\?, received/,
      );
      const text = (await latest.textContent()) ?? '';
      for (const kept of ['Ada Lovelace', 'Baker Street', 'ada@example.com'])
        expect(text, `${kept} is not quoted`).not.toContain(kept);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
