import { describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();

describe('the design screen', () => {
  it('previews the hosted page as it is edited (the same markup), saves the design, and the hosted page then shows it', async () => {
    const owner = await teamWithOwner('pro');
    const created = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Beta list', type: 'waitlist' },
    });
    const formId = created.body.id as string;
    const dashboard = await dashboardAs(chromium(), owner.email, { path: `/forms/${formId}` });
    const { page } = dashboard;
    try {
      await page.getByRole('link', { name: 'Design' }).click();
      await page.getByRole('heading', { name: 'Design of Beta list' }).waitFor();
      const preview = page.locator('.design-preview');
      // The preview draws the starter fields with their labels, inside its own shadow root.
      await preview.getByRole('heading', { name: 'Beta list' }).waitFor();
      await preview.getByLabel('Email').waitFor();
      await page.getByLabel('Title (empty: the form name)').fill('Join the <beta>');
      await page.getByLabel('Button label (empty: Send)').fill('Count me in');
      await page.getByLabel('Accent colour').fill('#aa00cc');
      await preview.getByRole('heading', { name: 'Join the <beta>' }).waitFor();
      const button = preview.getByRole('button', { name: 'Count me in' });
      expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
        'rgb(170, 0, 204)',
      );
      await expectAccessible(page, 'design');
      await page.getByRole('button', { name: 'Save the design' }).click();
      await page.getByText('Design saved.').waitFor();
      const form = await api('GET', `/v1/forms/${formId}`, { key: owner.apiKey });
      expect(form.body.design).toMatchObject({
        title: 'Join the <beta>',
        submitLabel: 'Count me in',
        accent: '#aa00cc',
      });

      const visitor = await chromium().newPage();
      try {
        await visitor.goto(`${stack().baseUrl}/f/${created.body.key}`);
        await visitor.getByRole('heading', { name: 'Join the <beta>' }).waitFor();
        const hosted = visitor.getByRole('button', { name: 'Count me in' });
        // Polled: one run read '' here, the page's styles not applied yet when the heading showed.
        await expect
          .poll(() => hosted.evaluate((el) => getComputedStyle(el).backgroundColor))
          .toBe('rgb(170, 0, 204)');
      } finally {
        await visitor.close();
      }
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
