import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

vi.setConfig({ testTimeout: 90_000 });

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

describe('the forms screen', () => {
  it('lists forms newest first with type, status and why, counts and unread; a new form opens its share panel', async () => {
    const owner = await teamWithOwner('pro');
    const older = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Older', type: 'feedback' },
    });
    await api('PATCH', `/v1/forms/${older.body.id}`, {
      key: owner.apiKey,
      body: { status: 'paused', emoji: '📝' },
    });
    const newer = await api('POST', '/v1/forms', { key: owner.apiKey, body: { name: 'Newer' } });
    for (const n of [1, 2]) {
      await submit(newer.body.key as string, {
        json: { message: `hi ${n}` },
        from: freshVisitor(),
      });
    }
    const dashboard = await dashboardAs(browser, owner.email);
    const { page } = dashboard;
    try {
      const list = page.getByRole('list', { name: 'Forms' });
      await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
      const rows = await list.getByRole('listitem').allTextContents();
      // Types and statuses in words, not the API's names (`contact`, `active`).
      expect(rows[0]).toMatch(/Newer.*Contact.*Open.*2 submissions.*2 unread/);
      expect(rows[1]).toMatch(/Older.*Feedback.*Paused.*0 submissions.*0 unread/);
      await expect.poll(() => page.getByText('📝').count()).toBe(1);
      await expect
        .poll(() => page.getByText(/2 of 10,000 submissions/).count(), { message: 'usage' })
        .toBe(1);
      await page.getByText('2 of 10,000 submissions (Pro plan)').waitFor();
      await page.getByText('The plan takes 10,000 submissions a month').waitFor();
      expect(await page.getByText(/near_limit|active|pro plan/).count()).toBe(0);
      expect(await page.getByRole('meter').getAttribute('aria-valuenow')).toBe(null);
      expect(await page.locator('meter').getAttribute('value')).toBe('2');
      await expectAccessible(page, 'forms, light, 1280');

      await page.getByLabel('Name').fill('Signup');
      await page.getByLabel('Type').selectOption('waitlist');
      // The type chosen says what it starts with and what its summary counts.
      await page.getByText(/^Email and name; the summary counts signups/).waitFor();
      await page.getByRole('button', { name: 'Create form' }).click();
      await page.getByRole('heading', { name: 'Share Signup' }).waitFor();
      const endpoint = await page.getByLabel('Endpoint', { exact: true }).inputValue();
      expect(endpoint).toMatch(/\/s\/[a-z0-9-]+$/i);
      expect(await page.getByLabel('Hosted page', { exact: true }).inputValue()).toBe(
        endpoint.replace('/s/', '/f/'),
      );
      // Each way to publish says what it is for, read with its field.
      const hintOf = async (label: string) => {
        const id = await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby');
        return id ? page.locator(`[id="${id}"]`).textContent() : null;
      };
      expect(await hintOf('Endpoint')).toMatch(/form's action, method POST/);
      expect(await hintOf('Hosted page')).toMatch(/no website needed/);
      expect(await hintOf('Embed snippet')).toMatch(/where the form should appear/);
      expect(await hintOf('HTML form')).toMatch(/plain HTML form/);
      const snippet = await page.getByLabel('HTML form', { exact: true }).inputValue();
      expect(snippet).toContain(`action="${endpoint}"`);
      expect(snippet).toContain('name="email"');
      expect(snippet).toContain('name="_gotcha"');
      await expectAccessible(page, 'share panel');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a closed form says why: the submission limit reached', async () => {
    const owner = await teamWithOwner('pro');
    const form = await api('POST', '/v1/forms', { key: owner.apiKey, body: { name: 'Capped' } });
    await api('PATCH', `/v1/forms/${form.body.id}`, {
      key: owner.apiKey,
      body: { maxSubmissions: 1 },
    });
    await submit(form.body.key as string, { json: { a: 'only one' }, from: freshVisitor() });
    const dashboard = await dashboardAs(browser, owner.email);
    try {
      await expect
        .poll(() => dashboard.page.getByText('closed: submission limit reached').count())
        .toBe(1);
    } finally {
      await dashboard.close();
    }
  });

  it('duplicates a form; on Free the fourth form is refused with the limit explained', async () => {
    const owner = await teamWithOwner('free');
    for (const name of ['One', 'Two']) {
      await api('POST', '/v1/forms', { key: owner.apiKey, body: { name } });
    }
    const dashboard = await dashboardAs(browser, owner.email);
    const { page } = dashboard;
    try {
      await page.getByRole('button', { name: 'Duplicate Two' }).click();
      await expect
        .poll(() => page.getByRole('list', { name: 'Forms' }).getByRole('listitem').count())
        .toBe(3);
      await expect.poll(() => page.getByText('Two copy').count()).toBe(1);
      await page.getByLabel('Name').fill('Four');
      await page.getByRole('button', { name: 'Create form' }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toContain('The Free plan allows 3 forms');
      await page.getByRole('button', { name: 'Duplicate One' }).click();
      await expect.poll(() => page.getByText(/The Free plan allows 3 forms/).count()).toBe(2);
    } finally {
      await dashboard.close();
    }
  });

  it.each([
    ['light at 375 px', { width: 375 }],
    ['dark at 1280 px', { dark: true }],
    ['dark at 375 px', { width: 375, dark: true }],
  ] as const)('is accessible %s', async (_what, options) => {
    const owner = await teamWithOwner('pro');
    await api('POST', '/v1/forms', { key: owner.apiKey, body: { name: 'A form' } });
    const dashboard = await dashboardAs(browser, owner.email, options);
    try {
      await dashboard.page.getByRole('link', { name: 'A form' }).waitFor();
      await expectAccessible(dashboard.page, `forms ${_what}`);
      const overflow = await dashboard.page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
    } finally {
      await dashboard.close();
    }
  });
});
