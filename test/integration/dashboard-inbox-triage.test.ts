import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import {
  dashboardAs,
  expectAccessible,
  openDashboard,
  signInThroughPage,
} from '#test/support/dashboard.ts';
import { folderCounts, inboxRows, inboxWith, withTable } from '#test/support/dashboard-inbox.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

vi.setConfig({ testTimeout: 120_000 });

const OUTPUT_DIR = new URL('../../.local/test-output/', import.meta.url);

let browser: Browser;
beforeAll(async () => {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  browser = await launchChromium();
  await localStore();
});
afterAll(async () => {
  await browser.close();
});

/** Submissions whose message fills more than a row's line (Person i, p<i>@example.com). */
const inboxOf = (count: number) =>
  inboxWith(count, {
    message: (i) =>
      `Note ${i} about the order, with a question that runs on for a while to fill the row`,
  });

const rowsOf = inboxRows;
const open = withTable;
const counts = folderCounts;
const rowOf = (page: Page, name: string) => rowsOf(page).filter({ hasText: name });

/** Every row's box, rounded to the pixel. */
const boxes = (page: Page) =>
  rowsOf(page).evaluateAll((rows) =>
    rows.map((row) => {
      const box = row.getBoundingClientRect();
      return [box.x, box.y, box.width, box.height].map(Math.round);
    }),
  );

/** The focused element's row text (its link or box), or what has focus. */
const focusedRow = (page: Page) =>
  page.evaluate(
    () => document.activeElement?.closest('tr')?.textContent ?? document.activeElement?.tagName,
  );

const folder = (page: Page, name: string) =>
  page
    .getByRole('navigation', { name: 'Folders' })
    .getByRole('link', { name: new RegExp(`^${name}`) });

const notice = (page: Page) => page.locator('.triage-bar').getByRole('status').textContent();

describe('inbox rows that say who and what', () => {
  for (const width of [1280, 375]) {
    it(`show the sender’s name and email, the answers, short, and the time (${width} px)`, async () => {
      const { owner, form } = await inboxOf(3);
      const dashboard = await open(
        dashboardAs(browser, owner.email, { path: `/forms/${form.id}`, width }),
      );
      const { page } = dashboard;
      try {
        const row = rowOf(page, 'Person 2');
        for (const text of ['Person 2', 'p2@example.com', 'seconds ago']) {
          expect(await row.getByText(text).first().isVisible(), text).toBe(true);
        }
        const link = row.getByRole('link');
        expect(await link.textContent()).toMatch(/^Unread: Note 2 about the order, .*…$/);
        // The name and email are said once, as the sender, not again among the answers.
        expect(await link.textContent()).not.toContain('Person 2');
        expect(await row.locator('time').isVisible()).toBe(true);
        await expectAccessible(page, `inbox rows at ${width} px`);
        expect(dashboard.errors).toEqual([]);
      } finally {
        await dashboard.close();
      }
    });
  }

  it('in the spam folder, a chip says why each is spam: links, duplicate, moved by you', async () => {
    const { owner, form } = await inboxOf(2);
    await submit(form.key, {
      json: {
        name: 'Link Seller',
        message: 'buy http://a.example http://b.example http://c.example',
      },
      from: freshVisitor(),
    });
    const twice = { name: 'Echo Twice', email: 'echo@example.com', message: 'Same words' };
    // The same answers from the same visitor: a duplicate.
    const echo = freshVisitor();
    await submit(form.key, { json: twice, from: echo });
    await submit(form.key, { json: twice, from: echo });
    const dashboard = await open(dashboardAs(browser, owner.email, { path: `/forms/${form.id}` }));
    const { page } = dashboard;
    try {
      await rowOf(page, 'Person 1').getByRole('checkbox').click();
      await page.getByRole('button', { name: 'Spam', exact: true }).click();
      await expect.poll(() => counts(page)).toEqual(['All 2', 'Unread 2', 'Starred 0', 'Spam 3']);
      await folder(page, 'Spam').click();
      await expect.poll(() => rowsOf(page).count()).toBe(3);
      const chip = (name: string) => rowOf(page, name).locator('.badge.spam');
      expect(await chip('Link Seller').textContent()).toBe('Spam because: Links');
      expect(await chip('Echo Twice').textContent()).toBe('Spam because: Duplicate');
      expect(await chip('Person 1').textContent()).toBe('Spam because: Moved by you');
      expect(await chip('Person 1').getByText('Moved by you').isVisible()).toBe(true);
      await expectAccessible(page, 'spam folder with reasons');
      // Dark, with the bulk bar shown over the rows.
      await page.emulateMedia({ colorScheme: 'dark' });
      await rowOf(page, 'Link Seller').getByRole('checkbox').click();
      await page.getByRole('group', { name: '1 selected' }).waitFor();
      await expectAccessible(page, 'spam folder with reasons and a selection, dark');
      await page.keyboard.press('Escape');
      await page.emulateMedia({ colorScheme: 'light' });
      // Not spam: back in All, without a chip.
      await rowOf(page, 'Person 1').getByRole('checkbox').click();
      await page.getByRole('button', { name: 'Not spam' }).click();
      await expect.poll(() => counts(page)).toEqual(['All 3', 'Unread 3', 'Starred 0', 'Spam 2']);
      await folder(page, 'All').click();
      await expect.poll(() => rowsOf(page).count()).toBe(3);
      expect(await rowOf(page, 'Person 1').locator('.badge.spam').count()).toBe(0);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});

describe('the bulk bar', () => {
  for (const width of [1280, 375]) {
    it(`overlays: selecting moves no row, and a click after selecting lands on the row it aimed at (${width} px)`, async () => {
      const { owner, form } = await inboxOf(6);
      const dashboard = await open(
        dashboardAs(browser, owner.email, { path: `/forms/${form.id}`, width }),
      );
      const { page } = dashboard;
      try {
        const before = await boxes(page);
        // Aimed before selecting: the middle of Person 3's row box.
        const aim = await rowOf(page, 'Note 3 about').getByRole('checkbox').boundingBox();
        await rowOf(page, 'Note 5 about').getByRole('checkbox').click();
        await page.getByRole('group', { name: '1 selected' }).waitFor();
        expect(await boxes(page)).toEqual(before);
        await page.mouse.click(aim!.x + aim!.width / 2, aim!.y + aim!.height / 2);
        await page.getByRole('group', { name: '2 selected' }).waitFor();
        expect(await rowOf(page, 'Note 3 about').getAttribute('aria-selected')).toBe('true');
        expect(await rowOf(page, 'Note 3 about').getByRole('checkbox').isChecked()).toBe(true);
        expect(await rowOf(page, 'Note 5 about').getByRole('checkbox').isChecked()).toBe(true);
        expect(await rowOf(page, 'Note 4 about').getAttribute('aria-selected')).toBe('false');
        expect(await boxes(page)).toEqual(before);
        await expectAccessible(page, `the bulk bar at ${width} px`);
        await page.screenshot({
          path: new URL(`inbox-bulk-bar-${width}.png`, OUTPUT_DIR).pathname,
        });
        // The action's notice floats too.
        await page.getByRole('button', { name: 'Spam', exact: true }).click();
        await expect.poll(() => notice(page)).toBe('2 submissions moved to spam');
        await expect.poll(() => rowsOf(page).count()).toBe(4);
        expect((await boxes(page))[0]).toEqual(before[0]);
      } finally {
        await dashboard.close();
      }
    });
  }

  it('its notices go when the person moves to another folder, page or form', async () => {
    const { owner, form } = await inboxOf(20);
    const dashboard = await open(dashboardAs(browser, owner.email, { path: `/forms/${form.id}` }));
    const { page } = dashboard;
    try {
      const markOneRead = async () => {
        await rowsOf(page).first().getByRole('checkbox').click();
        await page.getByRole('button', { name: 'Mark read' }).click();
        await expect.poll(() => notice(page)).toBe('1 submission marked read');
      };
      await markOneRead();
      await folder(page, 'Unread').click();
      await expect.poll(() => notice(page)).toBe('');
      await markOneRead();
      await page.getByRole('link', { name: 'Next page' }).click();
      await expect.poll(() => page.getByText(/^Page 2 of 2 ·/).count()).toBe(1);
      expect(await notice(page)).toBe('');
      await markOneRead();
      const other = await api('POST', '/v1/forms', {
        key: owner.apiKey,
        body: { name: 'Other', type: 'contact' },
      });
      await page.goto(
        page
          .url()
          .replace(form.id, other.body.id as string)
          .split('?')[0]!,
      );
      await page.getByRole('heading', { name: 'No submissions yet' }).waitFor();
      expect(await page.locator('.triage-bar').count()).toBe(0);
    } finally {
      await dashboard.close();
    }
  });
});

describe('empty spam', () => {
  it('asks first, stating the 30-day rule, then deletes all spam of the form and nothing else', async () => {
    const { owner, form } = await inboxOf(20);
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${form.id}?folder=spam`,
    });
    const { page } = dashboard;
    try {
      await expect.poll(() => counts(page)).toEqual(['All 20', 'Unread 20', 'Starred 0', 'Spam 0']);
      expect(await page.getByRole('button', { name: 'Empty spam' }).count()).toBe(0);
      await folder(page, 'All').click();
      await expect.poll(() => rowsOf(page).count()).toBe(15);
      await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
      await page.getByRole('button', { name: 'Spam', exact: true }).click();
      await expect.poll(() => counts(page)).toEqual(['All 5', 'Unread 5', 'Starred 0', 'Spam 15']);
      await folder(page, 'Spam').click();
      await page.getByRole('button', { name: 'Empty spam' }).click();
      const dialog = page.getByRole('dialog', { name: 'Empty spam: delete 15 submissions?' });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(
        'Spam is also deleted by itself 30 days after it became spam',
      );
      await expectAccessible(page, 'empty spam question');
      await dialog.getByRole('button', { name: 'Empty spam' }).click();
      await expect.poll(() => notice(page)).toBe('15 submissions deleted');
      await expect.poll(() => counts(page)).toEqual(['All 5', 'Unread 5', 'Starred 0', 'Spam 0']);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});

describe('on a phone (375 × 812)', () => {
  it('at least three submissions show whole above the fold', async () => {
    const { owner, form } = await inboxOf(10);
    const dashboard = await open(
      dashboardAs(browser, owner.email, { path: `/forms/${form.id}`, width: 375 }),
    );
    const { page } = dashboard;
    try {
      await page.setViewportSize({ width: 375, height: 812 });
      const bottoms = (await boxes(page)).map(([, y, , height]) => y! + height!);
      expect(bottoms.filter((bottom) => bottom <= 812).length).toBeGreaterThanOrEqual(3);
    } finally {
      await dashboard.close();
    }
  });
});

describe('search results are the inbox', () => {
  it('the same rows, with selection and bulk actions on the matches, and counts that say what they counted', async () => {
    const { owner, form } = await inboxOf(30);
    const dashboard = await open(dashboardAs(browser, owner.email, { path: `/forms/${form.id}` }));
    const { page } = dashboard;
    try {
      await page.getByRole('searchbox', { name: 'Search answers' }).fill('note 2');
      await page.getByRole('button', { name: 'Search' }).click();
      await page
        .getByRole('heading', { name: '12 matches for “note 2”, spam not included' })
        .waitFor();
      // Rows as in the inbox: the sender, then the answers.
      const row = rowOf(page, 'Person 21');
      expect(await row.getByText('p21@example.com').isVisible()).toBe(true);
      await row.getByRole('checkbox').click();
      await rowOf(page, 'Person 20').getByRole('checkbox').click();
      await page.getByRole('group', { name: '2 selected' }).waitFor();
      await page.getByRole('button', { name: 'Mark read' }).click();
      await expect.poll(() => notice(page)).toBe('2 submissions marked read');
      await expect.poll(() => counts(page)).toEqual(['All 30', 'Unread 28', 'Starred 0', 'Spam 0']);
      await rowOf(page, 'Person 22').getByRole('checkbox').click();
      await page.getByRole('button', { name: 'Spam', exact: true }).click();
      await expect.poll(() => notice(page)).toBe('1 submission moved to spam');
      await page
        .getByRole('heading', { name: '11 matches for “note 2”, spam not included' })
        .waitFor();
      await expect.poll(() => rowsOf(page).count()).toBe(11);
      await rowOf(page, 'Person 23').getByRole('checkbox').click();
      await page.getByRole('button', { name: 'Delete' }).click();
      await page
        .getByRole('dialog', { name: 'Delete 1 submission?' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await expect.poll(() => notice(page)).toBe('1 submission deleted');
      await expect.poll(() => rowsOf(page).count()).toBe(10);
      await expectAccessible(page, 'search results with a selection');

      // In the spam folder, the count says so.
      await page.goto(`${page.url().split('?')[0]}?folder=spam&q=note`);
      await page.getByRole('heading', { name: '1 match for “note” in spam' }).waitFor();
      expect(await rowOf(page, 'Person 22').locator('.badge.spam').textContent()).toBe(
        'Spam because: Moved by you',
      );
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});

describe('keyboard triage', () => {
  it('sign-in to inbox, ! marks the focused row spam and focus moves to the next row; # deletes and focus moves on too', async () => {
    const { owner, form } = await inboxOf(5);
    // Signed out, the inbox's link asks for the sign-in and then opens the inbox.
    const dashboard = await openDashboard(browser, { path: `/forms/${form.id}` });
    const { page } = dashboard;
    try {
      await signInThroughPage(page, owner.email);
      await page.getByRole('table').waitFor();
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      expect(await focusedRow(page)).toContain('Note 3 about');
      await page.keyboard.press('!');
      await expect.poll(() => counts(page)).toEqual(['All 4', 'Unread 4', 'Starred 0', 'Spam 1']);
      await expect.poll(() => focusedRow(page)).toContain('Note 2 about');
      expect(await notice(page)).toBe('1 submission moved to spam');
      await page.keyboard.press('#');
      const dialog = page.getByRole('dialog', { name: 'Delete 1 submission?' });
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => counts(page)).toEqual(['All 3', 'Unread 3', 'Starred 0', 'Spam 1']);
      await expect.poll(() => focusedRow(page)).toContain('Note 1 about');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a ticked box keeps the keys: e acts on its row, ! and # on the selection; Escape clears the selection', async () => {
    const { owner, form } = await inboxOf(5);
    const dashboard = await open(dashboardAs(browser, owner.email, { path: `/forms/${form.id}` }));
    const { page } = dashboard;
    try {
      await rowOf(page, 'Note 4 about').getByRole('checkbox').click();
      await page.keyboard.press('e');
      await expect.poll(() => counts(page)).toEqual(['All 5', 'Unread 4', 'Starred 0', 'Spam 0']);
      await rowOf(page, 'Note 2 about').getByRole('checkbox').click();
      await page.getByRole('group', { name: '2 selected' }).waitFor();
      await page.keyboard.press('!');
      await expect.poll(() => counts(page)).toEqual(['All 3', 'Unread 3', 'Starred 0', 'Spam 2']);
      await rowOf(page, 'Note 3 about').getByRole('checkbox').click();
      await rowOf(page, 'Note 1 about').getByRole('checkbox').click();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.locator('.bulk').count()).toBe(0);
      expect(
        await rowsOf(page).evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-selected'))),
      ).toEqual(['false', 'false', 'false']);
      await rowOf(page, 'Note 3 about').getByRole('checkbox').click();
      await rowOf(page, 'Note 0 about').getByRole('checkbox').click();
      await page.keyboard.press('#');
      await page
        .getByRole('dialog', { name: 'Delete 2 submissions?' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await expect.poll(() => counts(page)).toEqual(['All 1', 'Unread 1', 'Starred 0', 'Spam 2']);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('focus returns to the row after a dialog closes; the help has one Close and lists the new keys', async () => {
    const { owner, form } = await inboxOf(4);
    const dashboard = await open(dashboardAs(browser, owner.email, { path: `/forms/${form.id}` }));
    const { page } = dashboard;
    try {
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await page.keyboard.press('#');
      await page.getByRole('dialog', { name: 'Delete 1 submission?' }).waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      await expect.poll(() => focusedRow(page)).toContain('Note 2 about');

      await page.keyboard.press('?');
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await help.waitFor();
      expect(await help.getByRole('button').allTextContents()).toEqual(['Close']);
      const keys = await help.locator('kbd').allTextContents();
      expect(keys).toEqual(expect.arrayContaining(['!', '#', 'Escape']));
      await expectAccessible(page, 'the keys');
      await help.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      await expect.poll(() => focusedRow(page)).toContain('Note 2 about');
      await page.keyboard.press('j');
      expect(await focusedRow(page)).toContain('Note 1 about');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
