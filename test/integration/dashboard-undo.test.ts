import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';
import { folderCounts, inboxWith, withTable } from '#test/support/dashboard-inbox.ts';
import { localStore } from '#test/support/store.ts';

vi.setConfig({ testTimeout: 120_000 });

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
  await localStore();
});
afterAll(async () => {
  await browser.close();
});

/** Presses Tab until `target` has the focus: the keyboard's way to a control. */
async function tabTo(page: Page, target: Locator) {
  for (let presses = 0; presses < 60; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the control');
}

describe('undo in the inbox', () => {
  it('spam, read and star offer Undo (z, or the button by Tab) that puts back exactly what changed; delete still asks first', async () => {
    const { owner, form } = await inboxWith(4);
    const list = await api('GET', `/v1/forms/${form.id}/submissions`, { key: form.apiKey });
    const [p3, p2] = (list.body.items as { id: string }[]).map((item) => item.id);
    // Person 2 read already: a bulk "Mark read" changes it not, so its undo must leave it read.
    await api('PATCH', `/v1/forms/${form.id}/submissions`, {
      key: form.apiKey,
      body: { target: { ids: [p2] }, read: true },
    });
    const dashboard = await withTable(
      dashboardAs(browser, owner.email, { path: `/forms/${form.id}` }),
    );
    const { page } = dashboard;
    const undo = page.getByRole('button', { name: 'Undo' });
    const status = (text: string) => page.getByRole('status').filter({ hasText: text });
    const read = async (id: string) =>
      (await api('GET', `/v1/forms/${form.id}/submissions/${id}`, { key: form.apiKey })).body.read;
    try {
      await expect
        .poll(() => folderCounts(page))
        .toEqual(['All 4', 'Unread 3', 'Starred 0', 'Spam 0']);

      // ! by key, z by key.
      await page.keyboard.press('j');
      await page.keyboard.press('!');
      await status('1 submission moved to spam').waitFor();
      await undo.waitFor();
      await expectAccessible(page, 'a notice with its Undo');
      await page.keyboard.press('z');
      await status('Undone: 1 submission moved out of spam').waitFor();
      await expect
        .poll(() => folderCounts(page))
        .toEqual(['All 4', 'Unread 3', 'Starred 0', 'Spam 0']);
      expect(await undo.count(), 'an undo is not undone again').toBe(0);

      // A bulk "Mark read" of two, one read already: Undo (clicked) makes only the other unread.
      await page.getByRole('checkbox', { name: /Person 3/ }).check();
      await page.getByRole('checkbox', { name: /Person 2/ }).check();
      await page.getByRole('button', { name: 'Mark read' }).click();
      await status('1 submission marked read').waitFor();
      await expect
        .poll(() => folderCounts(page))
        .toEqual(['All 4', 'Unread 2', 'Starred 0', 'Spam 0']);
      await undo.click();
      await status('Undone: 1 submission marked unread').waitFor();
      await expect
        .poll(() => folderCounts(page))
        .toEqual(['All 4', 'Unread 3', 'Starred 0', 'Spam 0']);
      expect(await read(p3!)).toBe(false);
      expect(await read(p2!)).toBe(true);

      // s by key; Undo reached by Tab and pressed with Enter.
      await page.getByRole('link', { name: /Note 3/ }).focus();
      await page.keyboard.press('s');
      await expect
        .poll(() => folderCounts(page))
        .toEqual(['All 4', 'Unread 3', 'Starred 1', 'Spam 0']);
      await tabTo(page, undo);
      await page.keyboard.press('Enter');
      await expect
        .poll(() => folderCounts(page))
        .toEqual(['All 4', 'Unread 3', 'Starred 0', 'Spam 0']);

      // A delete offers no undo: it asks first, as ever.
      await page.getByRole('link', { name: /Note 3/ }).focus();
      await page.keyboard.press('#');
      await page.getByRole('dialog', { name: 'Delete 1 submission?' }).waitFor();
      await page.keyboard.press('Escape');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
