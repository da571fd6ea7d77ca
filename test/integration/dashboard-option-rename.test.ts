import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible, reloadUntil, tabTo } from '#test/support/dashboard.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { localStore } from '#test/support/store.ts';

/**
 * Renaming an option on the fields screen (docs/dashboard.md#settings-and-fields):
 * the screen offers to carry the old answers over to the new words, and the
 * summary then counts them there; kept apart, they show by their old words.
 * The rows add up to the answered count either way. Keyboard, axe, 375 px dark.
 */

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();
const OUTPUT_DIR = new URL('../../.local/test-output/', import.meta.url);
mkdirSync(OUTPUT_DIR, { recursive: true });

/** A quote form with 13 answers "Deep clean" and 13 "Regular". */
async function quotes() {
  await localStore();
  const owner = await teamWithOwner('pro');
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: 'Quotes', type: 'custom' },
  });
  const formId = created.body.id as string;
  await api('PATCH', `/v1/forms/${formId}`, {
    key: owner.apiKey,
    body: {
      fields: [
        { id: 'service', type: 'radio', label: 'Service', options: ['Deep clean', 'Regular'] },
      ],
    },
  });
  await seedSubmissions({
    formId,
    teamId: owner.teamId,
    count: 26,
    data: (i) => ({ service: i % 2 === 0 ? 'Deep clean' : 'Regular' }),
  });
  return { owner, formId };
}

/** The summary's table of the field, row by row: "Deep cleaning 13". */
const serviceRows = async (page: Page) => {
  // Read once the summary has come (the screen says "Counting…" until then).
  await page.getByRole('heading', { name: 'Answers by field' }).waitFor();
  return (
    await page
      .locator('section.counts')
      .filter({ has: page.getByRole('heading', { name: 'Service (26 answered)' }) })
      .getByRole('row')
      .allInnerTexts()
  )
    .slice(1)
    .map((row) => row.replace(/\s+/g, ' ').trim());
};

async function renameDeepClean(page: Page, keepApart: boolean) {
  await page.getByRole('heading', { name: 'Fields of Quotes' }).waitFor();
  const toggle = page.getByRole('button', { name: /^Field 1: Service/ });
  await tabTo(page, toggle);
  await page.keyboard.press('Enter');
  const card = page.getByRole('group', { name: 'Field 1: Service' });
  const options = card.getByLabel('Options, one a line');
  await tabTo(page, options);
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('End');
  await page.keyboard.type('ing');
  expect(await options.inputValue()).toBe('Deep cleaning\nRegular');
  const carry = card.getByLabel('Answers of “Deep clean”');
  await carry.waitFor();
  // Offered as a rename: the old answers go to the new words unless kept apart.
  expect(await carry.inputValue()).toBe('Deep cleaning');
  if (keepApart) await carry.selectOption('');
  await expectAccessible(page, 'an option renamed on the fields screen');
  await page.screenshot({
    path: new URL(`dashboard-option-rename${keepApart ? '-apart' : ''}.png`, OUTPUT_DIR).pathname,
    fullPage: true,
  });
  await tabTo(page, page.getByRole('button', { name: 'Save fields' }));
  await page.keyboard.press('Enter');
  await page.getByText('Fields saved.').waitFor();
}

describe('renaming an option on the fields screen', () => {
  it('carries the old answers over to the new words; the summary counts 26 under them, rows adding up', async () => {
    const { owner, formId } = await quotes();
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/fields`,
    });
    const { page } = dashboard;
    try {
      await renameDeepClean(page, false);
      const saved = await api('GET', `/v1/forms/${formId}`, { key: owner.apiKey });
      expect((saved.body.fields as { formerOptions?: unknown }[])[0]?.formerOptions).toEqual({
        'Deep clean': 'Deep cleaning',
      });
      await page.goto(page.url().replace(/\/fields$/, '/summary'));
      await page.getByRole('heading', { name: 'Quotes: summary' }).waitFor();
      await reloadUntil(page, () => serviceRows(page), ['Deep cleaning 13', 'Regular 13']);
      await expectAccessible(page, 'the summary after a rename');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('kept apart, the old answers show by their words; 375 px dark', async () => {
    const { owner, formId } = await quotes();
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/fields`,
      width: 375,
      dark: true,
    });
    const { page } = dashboard;
    try {
      await renameDeepClean(page, true);
      await page.goto(page.url().replace(/\/fields$/, '/summary'));
      await page.getByRole('heading', { name: 'Quotes: summary' }).waitFor();
      await reloadUntil(page, () => serviceRows(page), [
        'Deep cleaning 0',
        'Regular 13',
        'Deep clean (no longer an option) 13',
      ]);
      await expectAccessible(page, 'the summary with a former option, 375 px dark');
      await page.screenshot({
        path: new URL('dashboard-option-former-summary.png', OUTPUT_DIR).pathname,
        fullPage: true,
      });
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
