import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
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

const counts = folderCounts;
const rowsOf = inboxRows;
const open = withTable;

describe('the inbox', () => {
  it('shows folders with counts, unread rows, pages of 15; a shift-click selects a range, and bulk changes say how many', async () => {
    const { owner, form } = await inboxWith(20);
    const dashboard = await open(dashboardAs(browser, owner.email, { path: `/forms/${form.id}` }));
    const { page } = dashboard;
    try {
      expect(await counts(page)).toEqual(['All 20', 'Unread 20', 'Starred 0', 'Spam 0']);
      await expect.poll(() => rowsOf(page).count()).toBe(15);
      expect(await rowsOf(page).first().getAttribute('class')).toContain('unread');
      expect(await page.getByText('Page 1 of 2 · 20 in All').count()).toBe(1);
      await expectAccessible(page, 'inbox');

      await page.getByRole('checkbox', { name: /Note 19 about/ }).click();
      await page.getByRole('checkbox', { name: /Note 16 about/ }).click({ modifiers: ['Shift'] });
      await expect.poll(() => page.getByText('4 selected').count()).toBe(1);
      await page.getByRole('button', { name: 'Mark read' }).click();
      await expect
        .poll(() => page.getByRole('main').getByRole('status').first().textContent())
        .toContain('4 submissions marked read');
      await expect.poll(() => counts(page)).toEqual(['All 20', 'Unread 16', 'Starred 0', 'Spam 0']);

      await page.getByRole('button', { name: 'Star' }).first().click();
      await expect.poll(() => counts(page)).toEqual(['All 20', 'Unread 16', 'Starred 1', 'Spam 0']);

      await page.getByRole('link', { name: 'Next page' }).click();
      await expect.poll(() => rowsOf(page).count()).toBe(5);
      await expect.poll(() => page.getByText('Page 2 of 2 · 20 in All').count()).toBe(1);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('select all matching acts on the whole folder as of the list; delete asks first and says how many went', async () => {
    const { owner, form } = await inboxWith(18);
    const dashboard = await open(dashboardAs(browser, owner.email, { path: `/forms/${form.id}` }));
    const { page } = dashboard;
    try {
      await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
      await page.getByRole('button', { name: 'Select all 18 in All' }).click();
      await expect.poll(() => page.getByText('18 selected').count()).toBe(1);
      await page.getByRole('button', { name: 'Spam', exact: true }).click();
      await expect.poll(() => counts(page)).toEqual(['All 0', 'Unread 0', 'Starred 0', 'Spam 18']);

      await page.getByRole('link', { name: /Spam/ }).click();
      await expect.poll(() => rowsOf(page).count()).toBe(15);
      await page.getByRole('checkbox', { name: /Note 17 about/ }).click();
      await page.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete 1 submission?' });
      await dialog.waitFor();
      await expectAccessible(page, 'delete confirmation');
      await dialog.getByRole('button', { name: 'Delete' }).dblclick();
      await expect
        .poll(() => page.getByRole('main').getByRole('status').first().textContent())
        .toContain('1 submission deleted');
      await expect.poll(() => counts(page)).toEqual(['All 0', 'Unread 0', 'Starred 0', 'Spam 17']);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('new submissions are counted, not pushed under the reader, until asked for', async () => {
    const { owner, form } = await inboxWith(3);
    const dashboard = await open(dashboardAs(browser, owner.email, { path: `/forms/${form.id}` }));
    const { page } = dashboard;
    try {
      await submit(form.key, { json: { message: 'Fresh one' }, from: freshVisitor() });
      await submit(form.key, { json: { message: 'Fresh two' }, from: freshVisitor() });
      // The inbox looks when the window regains focus (and every 15 s).
      await expect
        .poll(async () => {
          await page.evaluate(() => window.dispatchEvent(new Event('focus')));
          return page.getByRole('button', { name: /new submissions: show/ }).count();
        })
        .toBe(1);
      expect(await rowsOf(page).count(), 'the page did not move').toBe(3);
      await page.getByRole('button', { name: '2 new submissions: show' }).click();
      await expect.poll(() => rowsOf(page).count()).toBe(5);
      await expect.poll(() => rowsOf(page).first().textContent()).toContain('Fresh two');
    } finally {
      await dashboard.close();
    }
  });

  it('searching shows matches as they come and how far it has looked', async () => {
    const { owner, form } = await inboxWith(30);
    const dashboard = await open(dashboardAs(browser, owner.email, { path: `/forms/${form.id}` }));
    const { page } = dashboard;
    try {
      await page.getByRole('searchbox', { name: 'Search answers' }).fill('NOTE 2');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect
        .poll(() => page.getByText('Searched 30 of 30, tests and spam included.').count())
        .toBe(1);
      // "note" and "2": Note 2, 12, 20-29 (the words may be anywhere in the answers).
      // The matches are rows of the inbox's own table.
      const found = (await rowsOf(page).locator('a.preview').allTextContents()).map((text) =>
        text.replace('Unread: ', '').replace(' about the order', ''),
      );
      expect(found).toHaveLength(12);
      expect(found).toContain('Note 2');
      expect(found).toContain('Note 29');
      expect(found).not.toContain('Note 3');
      await expectAccessible(page, 'search results');
    } finally {
      await dashboard.close();
    }
  });

  it('triage by keyboard alone: j/k move, e reads, s stars, # deletes after a question, ? lists the keys', async () => {
    const { owner, form } = await inboxWith(4);
    const dashboard = await open(dashboardAs(browser, owner.email, { path: `/forms/${form.id}` }));
    const { page } = dashboard;
    try {
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await page.keyboard.press('k');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Note 3');
      await page.keyboard.press('e');
      await expect.poll(() => counts(page)).toEqual(['All 4', 'Unread 3', 'Starred 0', 'Spam 0']);
      // j then s faster than the page renders (both in one task): s stars the row j moved to.
      await page.evaluate(() => {
        for (const key of ['j', 's']) {
          document.activeElement!.dispatchEvent(
            new KeyboardEvent('keydown', { key, bubbles: true }),
          );
        }
      });
      await expect.poll(() => counts(page)).toEqual(['All 4', 'Unread 3', 'Starred 1', 'Spam 0']);
      await page.keyboard.press('#');
      await page.getByRole('dialog', { name: 'Delete 1 submission?' }).waitFor();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await expect.poll(() => counts(page)).toEqual(['All 3', 'Unread 2', 'Starred 0', 'Spam 0']);
      await page.keyboard.press('?');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
      await page.keyboard.press('Escape');
      await page.keyboard.press('j');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: /Person/ }).waitFor();
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a survey’s rows say what each answer is, not bare values and “No name or email”', async () => {
    const { owner, form } = await inboxWith(2, {
      fields: [
        { id: 'attending', type: 'radio', label: 'Coming', options: ['Yes', 'No'] },
        { id: 'guests', type: 'number', label: 'Guests', min: 0, max: 20 },
        { id: 'score', type: 'rating', label: 'Score', min: 0, max: 10 },
      ],
      data: (i): Record<string, string> =>
        i === 0 ? { attending: 'Yes', guests: '1' } : { score: '3' },
    });
    const dashboard = await open(dashboardAs(browser, owner.email, { path: `/forms/${form.id}` }));
    const { page } = dashboard;
    try {
      const links = rowsOf(page).getByRole('link');
      await expect
        .poll(() => links.allTextContents())
        .toEqual(['Unread: Score 3', 'Unread: Coming: Yes · Guests 1']);
      expect(await page.getByText('No name or email').count()).toBe(0);
      await page.getByRole('checkbox', { name: 'Select: Coming: Yes · Guests 1' }).waitFor();
      await expectAccessible(page, 'survey rows');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a new form shows how to post to it; a deleted form says it is gone', async () => {
    const owner = await teamWithOwner('pro');
    const created = await api('POST', '/v1/forms', { key: owner.apiKey, body: { name: 'Empty' } });
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${created.body.id}`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'No submissions yet' }).waitFor();
      expect(await page.getByLabel('Endpoint', { exact: true }).inputValue()).toContain(
        `/s/${created.body.key}`,
      );
      await api('DELETE', `/v1/forms/${created.body.id}`, { key: owner.apiKey });
      await page.reload();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('no longer exists');
      await page.getByRole('link', { name: 'Back to your forms' }).waitFor();
    } finally {
      await dashboard.close();
    }
  });

  it('a failed request shows a retry, never a blank page', async () => {
    const { owner, form } = await inboxWith(2);
    const dashboard = await dashboardAs(browser, owner.email);
    const { page } = dashboard;
    try {
      await page.route('**/v1/forms/*/submissions?*', (route) => route.abort('connectionreset'));
      await page.getByRole('link', { name: 'Triage' }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toContain('could not be reached');
      await page.unroute('**/v1/forms/*/submissions?*');
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(() => rowsOf(page).count()).toBe(2);
      void form;
    } finally {
      await dashboard.close();
    }
  });
});
