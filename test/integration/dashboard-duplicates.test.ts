import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible, tabTo } from '#test/support/dashboard.ts';
import { folderCounts, inboxRows, inboxWith, withTable } from '#test/support/dashboard-inbox.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { localStore } from '#test/support/store.ts';

/**
 * The spam folder by reason, and what the older duplicate rule took brought
 * back in one action (docs/dashboard.md#the-inbox); the rule itself as a
 * setting. By keyboard, at 1280 px light and 375 px dark, axe-clean.
 */

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

const reasons = (page: Page) => page.getByRole('navigation', { name: 'Why spam' });
const notice = (page: Page) => page.locator('.triage-bar').getByRole('status');

/** A contact form with 2 answers, and in spam 5 "duplicates" of the older rule and 1 link spam. */
async function spamOfTheOlderRule() {
  const { owner, form } = await inboxWith(2);
  await seedSubmissions({
    formId: form.id,
    teamId: owner.teamId,
    count: 5,
    flags: { isSpam: true, spamReason: 'duplicate' },
    receivedAt: (i) => new Date(Date.now() - (10 - i) * 1000),
    data: (i) => ({ name: `Guest ${i}`, email: `g${i}@example.com`, message: 'Yes, coming' }),
  });
  await seedSubmissions({
    formId: form.id,
    teamId: owner.teamId,
    count: 1,
    flags: { isSpam: true, spamReason: 'links' },
    data: () => ({ name: 'Link Seller', message: 'http://a.example http://b.example x' }),
  });
  return { owner, form };
}

describe('duplicates in spam, brought back', () => {
  for (const view of [
    { width: 1280, dark: false },
    { width: 375, dark: true },
  ]) {
    const where = `${view.width} px${view.dark ? ', dark' : ''}`;
    it(`spam narrows to Duplicates, says what they are, and moves all back in one action, counted (${where})`, async () => {
      const { owner, form } = await spamOfTheOlderRule();
      const dashboard = await withTable(
        dashboardAs(browser, owner.email, { path: `/forms/${form.id}?folder=spam`, ...view }),
      );
      const { page } = dashboard;
      try {
        expect(await folderCounts(page)).toEqual(['All 2', 'Unread 2', 'Starred 0', 'Spam 6']);
        const duplicates = reasons(page).getByRole('link', { name: /^Duplicates/ });
        await tabTo(page, duplicates);
        await page.keyboard.press('Enter');
        await expect.poll(() => inboxRows(page).count()).toBe(5);
        expect(new URL(page.url()).searchParams.get('reason')).toBe('duplicate');
        // A narrowed list knows how many spam holds of each reason.
        await expect
          .poll(async () => (await reasons(page).textContent())?.replace(/\s+/g, ' '))
          .toContain('Duplicates 5');
        expect(await duplicates.getAttribute('aria-current')).toBe('page');
        const explained = page.getByText('the same answers from the same visitor');
        expect(await explained.isVisible()).toBe(true);
        const moveBack = page.getByRole('button', {
          name: 'Move all 5 submissions back to the inbox',
        });
        expect(await moveBack.isVisible()).toBe(true);
        // Emptying all of spam is not offered while it shows one reason.
        expect(await page.getByRole('button', { name: 'Empty spam' }).count()).toBe(0);
        await expectAccessible(page, `duplicates in spam at ${where}`);
        await page.screenshot({
          path: new URL(`dashboard-duplicates-${view.width}.png`, OUTPUT_DIR).pathname,
          fullPage: true,
        });

        await tabTo(page, moveBack);
        await page.keyboard.press('Enter');
        await expect.poll(() => notice(page).textContent()).toBe('5 submissions moved out of spam');
        await expect
          .poll(() => folderCounts(page))
          .toEqual(['All 7', 'Unread 7', 'Starred 0', 'Spam 1']);
        expect(await page.getByText('No submissions in Spam for this reason.').isVisible()).toBe(
          true,
        );
        const forms = await api('GET', '/v1/forms', { key: owner.apiKey });
        expect((forms.body.forms as { submissionCount: number }[])[0]?.submissionCount).toBe(7);
        // The link spam stayed where it was.
        const links = await api('GET', `/v1/forms/${form.id}/submissions?filter=spam`, {
          key: owner.apiKey,
        });
        expect((links.body.items as { spamReason: string }[]).map((i) => i.spamReason)).toEqual([
          'links',
        ]);
        expect(dashboard.errors).toEqual([]);
      } finally {
        await dashboard.close();
      }
    });
  }

  it('the rule is a setting: "Send duplicates to spam", on by default, turned off by keyboard', async () => {
    const { owner, form } = await inboxWith(1);
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${form.id}/settings`,
    });
    const { page } = dashboard;
    try {
      const rule = page.getByRole('checkbox', { name: 'Send duplicates to spam' });
      await rule.waitFor();
      expect(await rule.isChecked()).toBe(true);
      await tabTo(page, rule);
      await page.keyboard.press('Space');
      const save = page.getByRole('button', { name: 'Save spam and security' });
      await tabTo(page, save);
      await page.keyboard.press('Enter');
      await expect
        .poll(async () => (await api('GET', `/v1/forms/${form.id}`, { key: owner.apiKey })).body)
        .toMatchObject({ markDuplicates: false });
      await expectAccessible(page, 'settings with the duplicate rule');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
