import { describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();

describe('the emails screen', () => {
  it('shows the notification and the auto-reply as the real templates make them from the saved settings, escaped', async () => {
    const owner = await teamWithOwner('pro');
    const created = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Shop <b>orders</b>', type: 'contact' },
    });
    const formId = created.body.id as string;
    const patched = await api('PATCH', `/v1/forms/${formId}`, {
      key: owner.apiKey,
      body: {
        notifySubject: 'Lead for {{form.name}}',
        notifyFromName: 'Shop desk',
        autoreplyEnabled: true,
        autoreplySubject: 'Thanks from {{form.name}}',
        autoreplyBody: 'We read every message.\nThe shop',
      },
    });
    expect(patched.status, patched.text).toBe(200);
    const dashboard = await dashboardAs(chromium(), owner.email, { path: `/forms/${formId}` });
    const { page } = dashboard;
    try {
      await page.getByRole('link', { name: 'Emails' }).click();
      const notification = page.getByRole('region', { name: 'Notification to you' });
      await notification.getByText('Lead for Shop <b>orders</b>').waitFor();
      expect(await notification.getByText('Shop desk').count()).toBe(1);
      expect(await notification.getByText(owner.email).count()).toBe(1);
      // The sample answers by their labels, in the text and the HTML bodies.
      expect(await notification.locator('pre').textContent()).toContain('Ada Lovelace');
      const html = notification.frameLocator('iframe[title="Notification to you: HTML"]');
      await html.getByText('ada@example.com').first().waitFor();
      expect(await html.locator('b').count()).toBe(0);

      const reply = page.getByRole('region', { name: 'Auto-reply to the submitter' });
      await reply.getByText('Thanks from Shop <b>orders</b>').waitFor();
      expect(await reply.locator('pre').textContent()).toContain('We read every message.');
      await reply.getByText('On', { exact: true }).waitFor();
      await expectAccessible(page, 'emails');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
