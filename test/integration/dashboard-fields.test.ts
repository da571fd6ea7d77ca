import { describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();

interface SavedField {
  id: string;
  type: string;
  label?: string;
  min?: number;
  max?: number;
  pattern?: string;
}

describe('the fields builder', () => {
  it('adds a field by keyboard, moves it first, refuses a dangerous pattern at its field, saves; a visitor then answers it on the hosted page and the inbox shows it by its label', async () => {
    const owner = await teamWithOwner('pro');
    const created = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Leads', type: 'contact' },
    });
    const formId = created.body.id as string;
    const fields = async () =>
      (await api('GET', `/v1/forms/${formId}`, { key: owner.apiKey })).body.fields as SavedField[];
    const dashboard = await dashboardAs(chromium(), owner.email, { path: `/forms/${formId}` });
    const { page } = dashboard;
    try {
      await page.getByRole('link', { name: 'Fields' }).click();
      await page.getByRole('heading', { name: 'Fields of Leads' }).waitFor();
      // Collapsed to a line each: label, type in words, required.
      const message = page.getByRole('button', { name: /^Field 3: Message/ });
      await page
        .getByRole('button', { name: 'Field 3: Message Long text, required', exact: true })
        .waitFor();
      expect(await message.getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByRole('group', { name: 'Field 3: Message' }).count()).toBe(0);

      // Added: the keyboard lands in its label; the id follows the label.
      await page.getByRole('button', { name: 'Add a field' }).click();
      // Typed once the focus is there (under the suite's load the new card can take a moment).
      const fresh = page
        .getByRole('group', { name: /^Field 4/ })
        .getByLabel('Label', { exact: true });
      await expect
        .poll(() => fresh.evaluate((input) => input === document.activeElement))
        .toBe(true);
      await page.keyboard.type('Company size');
      const added = page.getByRole('group', { name: 'Field 4: Company size' });
      expect(await added.getByLabel(/^Id/).inputValue()).toBe('company_size');
      await added.getByLabel('Type').selectOption('number');
      await added.getByLabel('Smallest').fill('1');
      await added.getByLabel('Largest').fill('500');
      // Moved up three times by keyboard: the focus stays on its button.
      await page.getByRole('button', { name: 'Move up: Company size' }).focus();
      for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
      await page.getByRole('group', { name: 'Field 1: Company size' }).waitFor();

      // A pattern that could take exponential time: refused at its field, nothing saved.
      await page.getByRole('button', { name: /^Field 2: Name/ }).click();
      const name = page.getByRole('group', { name: 'Field 2: Name' });
      await name.getByLabel(/^Pattern/).fill('(a+)+');
      await page.getByRole('button', { name: 'Save fields' }).click();
      await page
        .getByRole('heading', { name: 'One thing to correct: nothing was saved' })
        .waitFor();
      expect(await name.getByLabel(/^Pattern/).getAttribute('aria-invalid')).toBe('true');
      expect(await name.locator('.field-problem').textContent()).toMatch(/exponential/);
      expect((await fields()).map((f) => f.id)).toEqual(['name', 'email', 'message']);
      // The try box says what the pattern takes.
      await name.getByLabel(/^Pattern/).fill('[A-Z].*');
      await name.getByLabel('Try the pattern on').fill('ada');
      await name.getByText('“ada” does not match.').waitFor();
      await name.getByLabel('Try the pattern on').fill('Ada');
      await name.getByText('“Ada” matches.').waitFor();
      await page.getByRole('button', { name: 'Save fields' }).click();
      await page.getByText('Fields saved.').waitFor();
      const saved = await fields();
      expect(saved.map((f) => f.id)).toEqual(['company_size', 'name', 'email', 'message']);
      expect(saved[0]).toMatchObject({ type: 'number', label: 'Company size', min: 1, max: 500 });
      expect(saved[1]).toMatchObject({ pattern: '[A-Z].*' });
      await expectAccessible(page, 'fields builder');

      // A visitor answers the new field on the hosted page; the inbox shows it by its label.
      const key = created.body.key as string;
      const visitor = await chromium().newPage();
      try {
        await visitor.goto(`${stack().baseUrl}/f/${key}`);
        await visitor.getByLabel('Company size').fill('42');
        await visitor.getByLabel('Name').fill('Ada');
        await visitor.getByLabel('Email').fill('ada@example.com');
        await visitor.getByLabel('Message').fill('Hello');
        await visitor.getByRole('button', { name: 'Send' }).click();
        await visitor.getByText('Your submission has been received.').waitFor();
      } finally {
        await visitor.close();
      }
      const list = await api('GET', `/v1/forms/${formId}/submissions`, { key: owner.apiKey });
      const [posted] = list.body.items as { id: string }[];
      await page.goto(`${stack().baseUrl}/app/forms/${formId}/submissions/${posted!.id}`);
      await page.getByRole('heading', { name: 'Where it came from' }).waitFor();
      const answer = page.locator('.answers > div').filter({ has: page.getByText('Company size') });
      await expect.poll(() => answer.locator('dd').textContent()).toBe('42');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
