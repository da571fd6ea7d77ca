import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';
import { inboxWith, withTable } from '#test/support/dashboard-inbox.ts';
import { localStore } from '#test/support/store.ts';

vi.setConfig({ testTimeout: 120_000 });

/** A phone: 375 × 812 CSS pixels. */
const PHONE = { width: 375, height: 812 };

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
  await localStore();
});
afterAll(async () => {
  await browser.close();
});

async function onPhone(email: string, path: string, dark = false) {
  const dashboard = await dashboardAs(browser, email, { path, width: PHONE.width, dark });
  await dashboard.page.setViewportSize(PHONE);
  return dashboard;
}

/**
 * The words of `table` split across two lines: each run of letters between
 * spaces and the places an address may wrap (`@ . : -`) must sit on one line.
 */
function brokenWords(table: Locator): Promise<string[]> {
  return table.evaluate((root) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const word of text.matchAll(/[^\s@.:-]+[@.:-]?/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        if (lines.size > 1) broken.push(word[0]);
      }
    }
    return broken;
  });
}

const overBar = async (page: Page, row: Locator) => {
  const bar = await page.getByRole('group', { name: /selected/ }).boundingBox();
  const box = await row.boundingBox();
  return box!.y + box!.height <= bar!.y;
};

describe('on a phone (375 × 812)', () => {
  it('the team’s tables keep every word whole and fit the screen', async () => {
    const { owner } = await inboxWith(1);
    const invited = await api('POST', '/v1/team/members', {
      key: owner.apiKey,
      body: { email: 'bartholomew.longname@example.com', role: 'member' },
    });
    expect(invited.status, invited.text).toBeLessThan(300);
    const dashboard = await onPhone(owner.email, '/team');
    const { page } = dashboard;
    try {
      const members = page
        .getByRole('table')
        .filter({ has: page.getByRole('columnheader', { name: 'Member' }) });
      await members.getByRole('rowheader', { name: /bartholomew/ }).waitFor();
      await page.getByRole('columnheader', { name: 'What happened' }).waitFor();
      for (const table of await page.getByRole('table').all()) {
        expect(await brokenWords(table)).toEqual([]);
      }
      const fits = await members.evaluate(
        (table) => table.parentElement!.scrollWidth <= table.parentElement!.clientWidth,
      );
      expect(fits, 'the members’ table needs no sideways scroll').toBe(true);
      await members.getByRole('button', { name: /Resend the invitation to bartholomew/ }).waitFor();
      await expectAccessible(page, 'team at 375 × 812');
    } finally {
      await dashboard.close();
    }
  });

  it('the bulk bar never hides a row it acts on: a row ticked near the foot is scrolled clear of it', async () => {
    const { owner, form } = await inboxWith(15);
    const dashboard = await withTable(onPhone(owner.email, `/forms/${form.id}`, true));
    const { page } = dashboard;
    try {
      // The lowest row whose box is whole in the window, ticked where it is (no scrolling first).
      const rows = page.getByRole('table').locator('tbody tr');
      let lowest: Locator | undefined;
      for (const row of await rows.all()) {
        const box = await row.getByRole('checkbox').boundingBox();
        if (box && box.y + box.height <= PHONE.height) lowest = row;
      }
      const box = (await lowest!.getByRole('checkbox').boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.getByRole('group', { name: '1 selected' }).waitFor();
      await expect.poll(() => overBar(page, lowest!)).toBe(true);
      // By keys: x ticks the next rows down; each stays above the bar.
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press('j');
        await page.keyboard.press('x');
        const focused = page.locator('tbody tr.focused');
        await expect.poll(() => overBar(page, focused)).toBe(true);
      }
      const bar = (await page.getByRole('group', { name: /selected/ }).boundingBox())!;
      expect(bar.height, 'two lines of buttons and the count, not more').toBeLessThanOrEqual(130);
      await expectAccessible(page, 'bulk bar at 375 × 812, dark');
    } finally {
      await dashboard.close();
    }
  });

  it('the forms list shows the first form without scrolling', async () => {
    const { owner } = await inboxWith(1);
    const dashboard = await onPhone(owner.email, '');
    const { page } = dashboard;
    try {
      const first = page.getByRole('list', { name: 'Forms' }).getByRole('listitem').first();
      await first.waitFor();
      const box = (await first.boundingBox())!;
      expect(box.y + box.height, 'the first form is in sight').toBeLessThanOrEqual(PHONE.height);
      // A new form and the month's usage follow the list.
      await page.getByRole('heading', { name: 'New form' }).waitFor();
      await expectAccessible(page, 'forms at 375 × 812');
    } finally {
      await dashboard.close();
    }
  });
});
