import { describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';
import { focusedElement } from '#test/support/settings-screens.ts';

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();

/** Issue 30, "Settings and fields that guide": the fields builder's cards, summary and Save. */

async function ownerWithFields(fields: Record<string, unknown>[]) {
  const owner = await teamWithOwner('pro');
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: 'Built', type: 'custom' },
  });
  const formId = created.body.id as string;
  const patched = await api('PATCH', `/v1/forms/${formId}`, {
    key: owner.apiKey,
    body: { fields },
  });
  expect(patched.status, patched.text).toBe(200);
  const saved = async () =>
    (await api('GET', `/v1/forms/${formId}`, { key: owner.apiKey })).body.fields as {
      id: string;
      options?: string[];
    }[];
  return { owner, formId, saved };
}

const TECHNICAL = /Too (small|big)|expected|>=|<=|minLength|maxLength|\bmin\b|\bmax\b/;

describe('the fields builder guides', () => {
  it('a refused save opens the cards at fault and moves the keyboard to a summary; a link opens its card and focuses the bad line', async () => {
    const { owner, formId, saved } = await ownerWithFields([
      { id: 'plan', type: 'select', label: 'Plan', options: ['Gold', 'Silver'] },
      { id: 'size', type: 'number', label: 'Size' },
    ]);
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/fields`,
    });
    const { page } = dashboard;
    try {
      const planToggle = page.getByRole('button', { name: /^Field 1: Plan/ });
      const sizeToggle = page.getByRole('button', { name: /^Field 2: Size/ });
      // The line's name: label, type in words, required or not.
      await page
        .getByRole('button', { name: 'Field 1: Plan Drop-down list, optional', exact: true })
        .waitFor();
      await planToggle.click();
      expect(await page.locator('main').innerText()).not.toMatch(/\b[a-z]+[A-Z]\w*/);
      await page
        .getByRole('group', { name: 'Field 1: Plan' })
        .getByLabel('Options, one a line')
        .fill('Gold\n\nSilver\nGold');
      await sizeToggle.click();
      const size = page.getByRole('group', { name: 'Field 2: Size' });
      await size.getByLabel('Smallest').fill('10');
      await size.getByLabel('Largest').fill('5');
      // Both closed again: the refusal opens them.
      await planToggle.click();
      await sizeToggle.click();
      await page.getByText('Unsaved changes').waitFor();
      await page.getByRole('button', { name: 'Save fields' }).click();

      await expect
        .poll(async () => (await focusedElement(page)).text)
        .toBe('2 things to correct: nothing was saved');
      const links = page.locator('.error-summary').getByRole('link');
      expect(await links.allTextContents()).toEqual([
        'Field 1 (Plan), options, line 4: “Gold” is listed twice',
        'Field 2 (Size), smallest: must not be more than the largest number',
      ]);
      expect(await planToggle.getAttribute('aria-expanded')).toBe('true');
      expect(await sizeToggle.getAttribute('aria-expanded')).toBe('true');
      expect(await page.locator('main').innerText()).not.toMatch(TECHNICAL);

      await planToggle.click();
      await links.first().click();
      await expect
        .poll(() => focusedElement(page))
        .toMatchObject({ tag: 'TEXTAREA', selected: 'Gold' });
      expect(await planToggle.getAttribute('aria-expanded')).toBe('true');

      // No option at all: the words, not "Too small: expected array to have >=1 items".
      const plan = page.getByRole('group', { name: 'Field 1: Plan' });
      await plan.getByLabel('Options, one a line').fill('\n');
      await size.getByLabel('Largest').fill('50');
      await page.getByRole('button', { name: 'Save fields' }).click();
      await expect
        .poll(() => links.allTextContents())
        .toEqual(['Field 1 (Plan), options: needs at least one of the options']);
      expect(await page.locator('main').innerText()).not.toMatch(TECHNICAL);

      await plan.getByLabel('Options, one a line').fill('Gold\n\nSilver');
      await page.getByRole('button', { name: 'Save fields' }).click();
      await page.getByText('Fields saved.').waitFor();
      expect(await page.locator('.error-summary').count()).toBe(0);
      expect(await page.getByText('Unsaved changes').count()).toBe(0);
      expect((await saved())[0]!.options).toEqual(['Gold', 'Silver']);
      await expectAccessible(page, 'fields builder, cards open and closed');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a long list of fields keeps its Save in sight at the bottom of the window', async () => {
    const fields = Array.from({ length: 12 }, (_, i) => ({
      id: `q${i + 1}`,
      type: 'text',
      label: `Question ${i + 1}`,
      required: i % 2 === 0,
    }));
    const { owner, formId } = await ownerWithFields(fields);
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/fields`,
    });
    const { page } = dashboard;
    try {
      await page.setViewportSize({ width: 1280, height: 500 });
      await page.getByRole('button', { name: /^Field 12: Question 12/ }).waitFor();
      const save = page.getByRole('button', { name: 'Save fields' });
      const inSight = async () => {
        const box = (await save.boundingBox())!;
        return box.y >= 0 && box.y + box.height <= 500;
      };
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect.poll(inSight).toBe(true);
      await page.evaluate(() => window.scrollTo(0, 300));
      await expect.poll(inSight).toBe(true);
      await page
        .getByRole('button', { name: 'Field 1: Question 1 Short text, required', exact: true })
        .waitFor();
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('unsaved fields: a link away asks first, names the fields, and staying keeps the change', async () => {
    const { owner, formId } = await ownerWithFields([
      { id: 'q1', type: 'text', label: 'Question 1', required: false },
    ]);
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/fields`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('button', { name: /^Field 1: Question 1/ }).click();
      await page.getByLabel('Label', { exact: true }).fill('Question one');
      await page.getByText('Unsaved changes').first().waitFor();
      const asked: string[] = [];
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.dismiss();
      });
      await page.getByRole('link', { name: 'Inbox', exact: true }).click();
      await expect.poll(() => asked).toEqual(['Leave without saving the fields?']);
      expect(new URL(page.url()).pathname).toBe(`/app/forms/${formId}/fields`);
      expect(await page.getByLabel('Label', { exact: true }).inputValue()).toBe('Question one');
      // Saved, nothing is asked: the link leads away at once.
      await page.getByRole('button', { name: 'Save fields' }).click();
      await expect.poll(() => page.getByText('Unsaved changes').count()).toBe(0);
      await page.getByRole('link', { name: 'Inbox', exact: true }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/app/forms/${formId}`);
      expect(asked).toHaveLength(1);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
