import { mkdirSync } from 'node:fs';
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

vi.setConfig({ testTimeout: 120_000 });

/** Git-ignored (`.local/`): screenshots for a human to look at, not committed. */
const OUTPUT_DIR = new URL('../../.local/test-output/', import.meta.url);
const DAY = 86_400_000;

let browser: Browser;
let owner: Awaited<ReturnType<typeof teamWithOwner>>;
let formId: string;

beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(OUTPUT_DIR, { recursive: true });
  await localStore();
  owner = await teamWithOwner('pro');
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: 'Feedback', type: 'feedback' },
  });
  formId = created.body.id as string;
  // 40 answers at noon in Tokyo, two a day over the 20 days before today there; ratings 1 to 5.
  const tokyoToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(
    new Date(),
  );
  const noonInTokyo = (daysAgo: number) =>
    new Date(Date.parse(`${tokyoToday}T03:00:00Z`) - daysAgo * DAY);
  await seedSubmissions({
    formId,
    teamId: owner.teamId,
    count: 40,
    receivedAt: (i) => noonInTokyo(1 + Math.floor((39 - i) / 2)),
    data: (i) => ({ rating: String((i % 5) + 1), message: i % 3 ? 'Good' : '' }),
    meta: (i) => ({
      userAgent: 'Mozilla/5.0',
      referrer: i % 2 ? 'https://blog.example.org/post' : '',
      country: ['FR', 'JP', 'US'][i % 3],
      deviceClass: i % 4 ? 'desktop' : 'mobile',
    }),
  });
});
afterAll(async () => {
  await browser.close();
});

describe('the summary screen', () => {
  it('shows the totals, the days as a chart with its table, the type’s block and the fields, in the person’s time zone; a range is chosen by keyboard', async () => {
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${formId}`,
      timezoneId: 'Asia/Tokyo',
    });
    const { page } = dashboard;
    try {
      await page.getByRole('link', { name: 'Summary' }).click();
      await page.getByRole('heading', { name: 'Feedback: summary' }).waitFor();
      await page.getByText('Days in Asia/Tokyo, your time zone.').waitFor();
      const total = (term: string) => summaryFact(page, term);
      // The stream counts the seeded answers within moments: reload until it has.
      await reloadUntil(page, () => total('Submissions').textContent(), '40');
      expect(await page.getByRole('img', { name: /Submissions each day: bar chart/ }).count()).toBe(
        1,
      );
      await page.getByText('Submissions each day: the numbers', { exact: true }).click();
      const table = page
        .getByRole('table')
        .filter({ has: page.getByRole('columnheader', { name: 'Spam' }) });
      expect(await table.getByRole('row').count()).toBe(31);
      expect(await total('Average').textContent()).toBe('3');
      await page.getByRole('heading', { name: /Rating \(40 answered\), average 3/ }).waitFor();
      const countries = page
        .getByRole('table')
        .filter({ has: page.getByRole('columnheader', { name: 'Country' }) });
      expect(await countries.getByRole('row').allTextContents()).toHaveLength(4);
      await expectAccessible(page, 'summary');
      await page.screenshot({ path: new URL('summary.png', OUTPUT_DIR).pathname, fullPage: true });

      // Keyboard only: to the "Last 7 days" button, and Enter.
      await page.locator('body').focus();
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Last 7 days')
          break;
      }
      await page.keyboard.press('Enter');
      await expect.poll(() => new URL(page.url()).searchParams.get('from')).not.toBeNull();
      // Today and the 6 days before it in Tokyo: 6 of the seeded days.
      await expect.poll(() => total('Submissions').textContent()).toBe('12');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('at 375 px in dark mode: no sideways scrolling, axe-clean, a screenshot', async () => {
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${formId}/summary`,
      width: 375,
      dark: true,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Feedback: summary' }).waitFor();
      await page.getByRole('img', { name: /Views each day/ }).waitFor();
      await expectAccessible(page, 'summary, dark, 375 px');
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: new URL('summary-dark-375.png', OUTPUT_DIR).pathname,
        fullPage: true,
      });
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a link with a date past the documented range (to=9999-12-31) says which date is wrong, and a preset still shows the summary', async () => {
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${formId}/summary?to=9999-12-31`,
    });
    const { page } = dashboard;
    try {
      const alert = page.getByRole('alert');
      await expect
        .poll(() => alert.textContent())
        .toContain('To: Must be between 2000-01-01 and 2100-12-31');
      expect(await page.getByLabel('To').getAttribute('max')).toBe('2100-12-31');
      expect(await page.getByLabel('From').getAttribute('min')).toBe('2000-01-01');
      await expectAccessible(page, 'summary with a bad link');
      await page.getByRole('button', { name: 'Last 7 days' }).click();
      await page.getByRole('img', { name: /Views each day/ }).waitFor();
      // The 400 the link drew is the only failed request.
      expect(dashboard.failed).toEqual([expect.stringMatching(/^400 .*to=9999-12-31/)]);
    } finally {
      await dashboard.close();
    }
  });
});
