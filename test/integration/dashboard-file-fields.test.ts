import { mkdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible, tabTo } from '#test/support/dashboard.ts';

/**
 * A file field on the fields screen (docs/dashboard.md#settings-and-fields):
 * on Pro, the screen says that saving turns accepting files on, and the save
 * does; on Free, it says a file field cannot be saved and the save is refused
 * at the field. Then a visitor sees the field on the hosted page. By
 * keyboard, axe-clean, at 1280 px and 375 px dark.
 */

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();
const OUTPUT_DIR = new URL('../../.local/test-output/', import.meta.url);
mkdirSync(OUTPUT_DIR, { recursive: true });

async function jobsForm(plan: 'free' | 'pro') {
  const owner = await teamWithOwner(plan);
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: 'Jobs', type: 'contact' },
  });
  return { owner, formId: created.body.id as string, key: created.body.key as string };
}

describe('a file field on the fields screen', () => {
  for (const view of [
    { width: 1280, dark: false },
    { width: 375, dark: true },
  ]) {
    const where = `${view.width} px${view.dark ? ', dark' : ''}`;
    it(`on Pro: says saving turns on accepting files, and saving does; the hosted page then asks for the file (${where})`, async () => {
      const { owner, formId, key } = await jobsForm('pro');
      const dashboard = await dashboardAs(chromium(), owner.email, {
        path: `/forms/${formId}/fields`,
        ...view,
      });
      const { page } = dashboard;
      try {
        await page.getByRole('heading', { name: 'Fields of Jobs' }).waitFor();
        const add = page.getByRole('button', { name: 'Add a field' });
        await tabTo(page, add);
        await page.keyboard.press('Enter');
        const label = page.getByRole('group', { name: /^Field 4/ }).getByLabel('Label', {
          exact: true,
        });
        await expect
          .poll(() => label.evaluate((input) => input === document.activeElement))
          .toBe(true);
        await page.keyboard.type('CV');
        const card = page.getByRole('group', { name: 'Field 4: CV' });
        const type = card.getByLabel('Type');
        await tabTo(page, type);
        await type.selectOption('file');
        await page.keyboard.press('Tab');
        await page.keyboard.press('Space'); // Required
        expect(await card.getByLabel('Required').isChecked()).toBe(true);
        const note = card.getByText('Saving turns on accepting files for this form');
        expect(await note.isVisible()).toBe(true);
        // The note is the type's description, read with it.
        expect(await type.getAttribute('aria-describedby')).toContain('-type-hint');
        await expectAccessible(page, `a file field before saving at ${where}`);
        await page.screenshot({
          path: new URL(`dashboard-file-field-${view.width}.png`, OUTPUT_DIR).pathname,
          fullPage: true,
        });
        const save = page.getByRole('button', { name: 'Save fields' });
        await tabTo(page, save);
        await page.keyboard.press('Enter');
        await page
          .getByText('Fields saved. The form accepts files now, up to 10 MB each.')
          .waitFor();
        const saved = await api('GET', `/v1/forms/${formId}`, { key: owner.apiKey });
        expect(saved.body.allowUploads).toBe(true);
        expect((saved.body.fields as { id: string; type: string }[]).at(-1)).toMatchObject({
          id: 'cv',
          type: 'file',
          required: true,
        });
        expect(dashboard.errors).toEqual([]);

        // The visitor's page asks for the file: the field is there, enabled and required.
        const visitor = await chromium().newPage();
        try {
          await visitor.goto(`${stack().baseUrl}/f/${key}`);
          const file = visitor.getByLabel('CV');
          expect(await file.isEnabled()).toBe(true);
          expect(await file.getAttribute('required')).not.toBeNull();
        } finally {
          await visitor.close();
        }
      } finally {
        await dashboard.close();
      }
    });
  }

  it('on Free: says a file field cannot be saved, and the save is refused at its type, nothing saved', async () => {
    const { owner, formId } = await jobsForm('free');
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/fields`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Fields of Jobs' }).waitFor();
      await page.getByRole('button', { name: 'Add a field' }).click();
      const card = page.getByRole('group', { name: /^Field 4/ });
      await card.getByLabel('Label', { exact: true }).fill('CV');
      await card.getByLabel('Type').selectOption('file');
      expect(await card.getByText(/^Files need the Pro plan/).isVisible()).toBe(true);
      const save = page.getByRole('button', { name: 'Save fields' });
      await tabTo(page, save);
      await page.keyboard.press('Enter');
      await page
        .getByRole('heading', { name: 'One thing to correct: nothing was saved' })
        .waitFor();
      expect(await card.getByLabel('Type').getAttribute('aria-invalid')).toBe('true');
      expect(await card.locator('.field-problem').textContent()).toBe(
        'Files need the Pro plan: this form cannot accept files.',
      );
      const read = await api('GET', `/v1/forms/${formId}`, { key: owner.apiKey });
      expect((read.body.fields as { id: string }[]).map((f) => f.id)).toEqual([
        'name',
        'email',
        'message',
      ]);
      await expectAccessible(page, 'a refused file field on Free');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
