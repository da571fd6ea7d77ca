import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';
import { folderCounts, inboxRows, inboxWith, withTable } from '#test/support/dashboard-inbox.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

vi.setConfig({ testTimeout: 120_000 });

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
  await localStore();
});
afterAll(async () => {
  await browser.close();
});

const SURVEY = [
  { id: 'attending', type: 'radio', label: 'Coming', options: ['Yes', 'No', 'Maybe'] },
  { id: 'guests', type: 'number', label: 'Guests', min: 0, max: 20 },
  { id: 'note', type: 'textarea', label: 'Anything else?' },
  { id: 'diet', type: 'text', label: 'Diet' },
];
const LONG_NOTE = `We will bring a cake ${'and many more words about it '.repeat(8)}THE END`;

/** A survey of 20 answers; the newest (i = 19) has a long note. */
const survey = () =>
  inboxWith(20, {
    fields: SURVEY,
    data: (i) => ({
      attending: ['Yes', 'No', 'Maybe'][i % 3]!,
      guests: String(i % 5),
      note: i === 19 ? LONG_NOTE : `Note ${i}`,
      diet: i % 2 ? 'Vegan' : '',
    }),
  });

/** The table's column headers as they read, the row's box and star columns left out. */
const headers = async (page: Page) =>
  (await page.getByRole('columnheader').allTextContents()).filter(
    (text) => text !== '' && text !== 'Starred',
  );

describe('the inbox as a table', () => {
  it('a column per question, chosen and ordered by the owner and kept per form; long answers cut, whole on the submission', async () => {
    const { owner, form } = await survey();
    const dashboard = await withTable(
      dashboardAs(browser, owner.email, { path: `/forms/${form.id}` }),
    );
    const { page } = dashboard;
    try {
      const table = page.getByRole('button', { name: 'Table', exact: true });
      expect(await table.getAttribute('aria-pressed')).toBe('false');
      await table.click();
      expect(await table.getAttribute('aria-pressed')).toBe('true');
      await expect
        .poll(() => headers(page))
        .toEqual(['Coming', 'Guests', 'Anything else?', 'Diet', 'Received']);
      const newest = inboxRows(page).first();
      const note = await newest.getByRole('cell').nth(4).textContent();
      expect(note).toMatch(/^We will bring a cake and many more words.*…$/);
      expect([...note!].length).toBeLessThanOrEqual(80);
      expect(await newest.getByRole('link').textContent()).toBe('Unread: No');

      // Columns: Diet hidden, the note moved first; the keyboard keeps its place on the moved one.
      await page.getByText('Columns', { exact: true }).click();
      await page.getByRole('checkbox', { name: 'Diet' }).uncheck();
      await page.getByRole('button', { name: 'Move up: Anything else?' }).click();
      await page.getByRole('button', { name: 'Move up: Anything else?' }).click();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
        .toBe('Move down: Anything else?');
      await expect
        .poll(() => headers(page))
        .toEqual(['Anything else?', 'Coming', 'Guests', 'Received']);
      await expectAccessible(page, 'table view with its columns open');

      // Kept in this browser for this form: a reload shows the same table.
      await page.reload();
      await expect
        .poll(() => headers(page))
        .toEqual(['Anything else?', 'Coming', 'Guests', 'Received']);

      // Another form keeps its own view: rows until asked.
      const other = await api('POST', '/v1/forms', { key: owner.apiKey, body: { name: 'Other' } });
      await submit(other.body.key as string, {
        json: { name: 'Bo', email: 'bo@example.com', message: 'Hello' },
        from: freshVisitor(),
      });
      await page.goto(page.url().replace(form.id, other.body.id as string));
      await page.getByRole('table').waitFor();
      expect(await page.getByRole('columnheader', { name: 'Submission' }).count()).toBe(1);
      await page.goBack();
      await expect
        .poll(() => headers(page))
        .toEqual(['Anything else?', 'Coming', 'Guests', 'Received']);

      // The whole answer is on the submission.
      await newest.getByRole('link').click();
      await page.getByText(LONG_NOTE).waitFor();
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('the same folders, selection, bulk actions, keys and pages as the rows', async () => {
    const { owner, form } = await survey();
    const dashboard = await withTable(
      dashboardAs(browser, owner.email, { path: `/forms/${form.id}` }),
    );
    const { page } = dashboard;
    try {
      await page.getByRole('button', { name: 'Table', exact: true }).click();
      await page.getByRole('columnheader', { name: 'Coming' }).waitFor();
      await expect.poll(() => inboxRows(page).count()).toBe(15);

      // Keys: j moves to the first row's link and e reads it; j again, then ! moves it to spam.
      await page.keyboard.press('j');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Unread: No');
      await page.keyboard.press('e');
      await expect
        .poll(() => folderCounts(page))
        .toEqual(['All 20', 'Unread 19', 'Starred 0', 'Spam 0']);
      await page.keyboard.press('j');
      await page.keyboard.press('!');
      await expect
        .poll(() => folderCounts(page))
        .toEqual(['All 19', 'Unread 18', 'Starred 0', 'Spam 1']);

      // A shift-click selects a range; the bulk bar acts on it.
      await page.getByRole('checkbox', { name: /Note 17$/ }).click();
      await page.getByRole('checkbox', { name: /Note 15$/ }).click({ modifiers: ['Shift'] });
      await expect.poll(() => page.getByText('3 selected').count()).toBe(1);
      await page.getByRole('button', { name: 'Star', exact: true }).click();
      await expect
        .poll(() => folderCounts(page))
        .toEqual(['All 19', 'Unread 18', 'Starred 3', 'Spam 1']);

      // The next page and the spam folder are tables too.
      await page.getByRole('link', { name: /Next page/ }).click();
      await expect.poll(() => inboxRows(page).count()).toBe(4);
      await page.getByRole('columnheader', { name: 'Coming' }).waitFor();
      await page
        .getByRole('navigation', { name: 'Folders' })
        .getByRole('link', { name: /Spam/ })
        .click();
      await expect.poll(() => inboxRows(page).count()).toBe(1);
      await page.getByRole('columnheader', { name: 'Coming' }).waitFor();
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('on a phone, dark: the table scrolls sideways in a region the keyboard reaches, not the page', async () => {
    const { owner, form } = await survey();
    const dashboard = await withTable(
      dashboardAs(browser, owner.email, { path: `/forms/${form.id}`, width: 375, dark: true }),
    );
    const { page } = dashboard;
    try {
      await page.getByRole('button', { name: 'Table', exact: true }).click();
      const region = page.getByRole('region', { name: /All: page 1 of 2/ });
      await region.waitFor();
      expect(await region.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(
        true,
      );
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      await region.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
      await expectAccessible(page, 'table view at 375 px, dark');
    } finally {
      await dashboard.close();
    }
  });
});
