import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { api } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';
import { ownerWithForm } from '#test/support/settings-screens.ts';

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();

/**
 * Follows the in-app Inbox link, staying on the page when the app asks
 * first; what it asked, for a poll.
 */
async function leaveForInbox(page: Page): Promise<() => string[]> {
  const asked: string[] = [];
  page.once('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole('link', { name: 'Inbox', exact: true }).click();
  return () => asked;
}

describe('the settings screen', () => {
  it('saves each group on its own, checks with the route’s schema before sending, shows the route’s refusals at the field, and takes the close date in the person’s zone', async () => {
    const { owner, formId, saved } = await ownerWithForm('pro', 'Tuned');
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}`,
      timezoneId: 'Asia/Tokyo',
    });
    const { page } = dashboard;
    try {
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Settings of Tuned' }).waitFor();

      // By keyboard: the name, then Enter saves its group.
      await page.getByLabel('Name', { exact: true }).focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('Tuned up');
      await page.getByRole('form', { name: 'General' }).getByText('Unsaved changes').waitFor();
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await saved()).name).toBe('Tuned up');

      const notifications = page.getByRole('form', { name: /^Notifications/ });
      await notifications.getByLabel('Subject').fill('New lead for {{form.name}}');
      await notifications.getByRole('button', { name: 'Save notifications' }).click();
      await notifications.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect((await saved()).notifySubject).toBe('New lead for {{form.name}}');

      // Refused in the page by the route's schema: nothing is sent.
      const closing = page.getByRole('form', { name: /^Closing/ });
      const limit = closing.getByLabel('Close after this many submissions');
      await limit.fill('0');
      await closing.getByRole('button', { name: 'Save closing' }).click();
      await expect.poll(() => limit.getAttribute('aria-invalid')).toBe('true');
      expect(await closing.locator('.field-problem').textContent()).toMatch(/1/);
      expect((await saved()).maxSubmissions).toBeNull();
      await limit.fill('25');
      // A wall-clock time in Tokyo (UTC+9) is saved as the instant it names.
      await closing.getByLabel('Close at').fill('2030-01-02T03:04');
      await closing.getByText('UTC 2030-01-01T18:04:00Z').waitFor();
      await closing.getByRole('button', { name: 'Save closing' }).click();
      await expect
        .poll(async () => {
          const form = await saved();
          return [form.maxSubmissions, form.autoCloseAt];
        })
        .toEqual([25, '2030-01-01T18:04:00.000Z']);

      // Refused by the route (an address check the page shares): the issue at its field.
      const security = page.getByRole('form', { name: /^Spam and security/ });
      const ips = security.getByLabel('Blocked IP addresses or ranges (one a line)');
      await ips.fill('10.1.2.3/8\n999.1.1.1');
      await security.getByRole('button', { name: 'Save spam and security' }).click();
      await expect.poll(() => ips.getAttribute('aria-invalid')).toBe('true');
      await ips.fill('10.1.2.3/8');
      await security.getByLabel('Turnstile secret key').fill('0x-secret-for-tests');
      await security.getByRole('button', { name: 'Save spam and security' }).click();
      await expect
        .poll(async () => {
          const form = await saved();
          return [form.blockedIps, form.captchaSecretKeySet];
        })
        .toEqual([['10.0.0.0/8'], true]);
      await security.getByText('A secret is saved').waitFor();
      // Unsaved: an in-app link asks first; staying keeps the change on screen.
      await notifications.getByLabel('Sender name').fill('Front desk');
      await expect.poll(await leaveForInbox(page)).toEqual(['Leave without saving notifications?']);
      expect(await notifications.getByLabel('Sender name').inputValue()).toBe('Front desk');
      await page.getByRole('heading', { name: /^Settings of/ }).waitFor();
      await expectAccessible(page, 'settings');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('one answer per email address: a tick that names the form’s email field, saved and cleared, axe-clean', async () => {
    const { owner, formId, saved } = await ownerWithForm('free', 'RSVP');
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/settings`,
    });
    const { page } = dashboard;
    try {
      const security = page.getByRole('form', { name: /^Spam and security/ });
      const once = security.getByLabel('One answer per email address');
      expect(await once.isChecked()).toBe(false);
      await once.check();
      // What it does to the visitor and to counts, and the one field it reads.
      await security.getByText('still sees the thank-you page').waitFor();
      await security.getByText('It reads Email (email).').waitFor();
      await security.getByRole('button', { name: 'Save spam and security' }).click();
      await expect.poll(async () => (await saved()).unique).toEqual({ field: 'email' });
      await security.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await expectAccessible(page, 'settings, one answer per email address');
      await once.uncheck();
      await security.getByRole('button', { name: 'Save spam and security' }).click();
      await expect.poll(async () => (await saved()).unique).toBeNull();
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('asks about the group that is unsaved now, when one group is put back as another is changed in the same moment', async () => {
    const { owner, formId } = await ownerWithForm('pro', 'Tuned');
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/settings`,
    });
    const { page } = dashboard;
    try {
      const security = page.getByRole('form', { name: /^Spam and security/ });
      const ips = security.getByLabel('Blocked IP addresses or ranges (one a line)');
      await ips.fill('10.0.0.0/8');
      await security.getByText('Unsaved changes').waitFor();
      const sender = page.getByRole('form', { name: /^Notifications/ }).getByLabel('Sender name');
      // Both edits in one task, as a save's answer and a keystroke can land in one render.
      await page.evaluate(
        ([list, name]) => {
          const type = (field: HTMLInputElement | HTMLTextAreaElement, value: string) => {
            field.value = value;
            field.dispatchEvent(new Event('input', { bubbles: true }));
          };
          type(list as HTMLTextAreaElement, '');
          type(name as HTMLInputElement, 'Front desk');
        },
        [await ips.elementHandle(), await sender.elementHandle()],
      );
      await page
        .getByRole('form', { name: 'Notifications' })
        .getByText('Unsaved changes')
        .waitFor();
      expect(await security.getByText('Unsaved changes').count()).toBe(0);
      await expect.poll(await leaveForInbox(page)).toEqual(['Leave without saving notifications?']);
    } finally {
      await dashboard.close();
    }
  });

  it('lists the placeholders beside the email texts, each a button that inserts at the cursor by keyboard; an unknown one is refused at its field', async () => {
    const { owner, formId, saved } = await ownerWithForm('pro', 'Tuned');
    const fields = [
      { id: 'name', type: 'text', label: 'Your name' },
      { id: 'email', type: 'email', label: 'Email' },
      { id: 'cv', type: 'file', label: 'CV' },
    ];
    const patched = await api('PATCH', `/v1/forms/${formId}`, {
      key: owner.apiKey,
      body: { fields, allowUploads: true },
    });
    expect(patched.status, patched.text).toBe(200);
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/settings`,
    });
    const { page } = dashboard;
    try {
      const reply = page.getByRole('form', { name: /^Auto-reply/ });
      const subject = reply.getByLabel('Reply subject', { exact: true });
      const subjectPlaceholders = reply.getByRole('group', {
        name: 'Insert a placeholder into Reply subject',
      });
      await subjectPlaceholders.getByRole('button', { name: '{{form.name}}' }).waitFor();
      // The notification's subject: the form's own placeholders, then one per answer (a file
      // has none); answers always fill it.
      expect(
        await page
          .getByRole('group', { name: 'Insert a placeholder into Subject' })
          .getByRole('button')
          .allTextContents(),
      ).toEqual([
        '{{form.name}}',
        '{{form.id}}',
        '{{submission.id}}',
        '{{submission.createdAt}}',
        '{{field.name}}',
        '{{field.email}}',
      ]);
      // The reply's, while answers do not fill them: the form's own only, and a way to turn
      // answers on (dashboard-autoreply-answers.test.ts follows it).
      expect(await subjectPlaceholders.getByRole('button').allTextContents()).toEqual([
        '{{form.name}}',
        '{{form.id}}',
        '{{submission.id}}',
        '{{submission.createdAt}}',
        'Use answers in the reply…',
      ]);
      await page.getByRole('group', { name: 'Insert a placeholder into Reply text' }).waitFor();

      // By keyboard: the cursor inside the text, then the button, then typing goes on after it.
      await subject.fill('Thanks, !');
      await subject.press('End');
      await subject.press('ArrowLeft');
      await subjectPlaceholders.getByRole('button', { name: '{{form.name}}' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => subject.inputValue()).toBe('Thanks, {{form.name}}!');
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.id))
        .toBe('setting-autoreplySubject');
      await page.keyboard.type(' :)');
      expect(await subject.inputValue()).toBe('Thanks, {{form.name}} :)!');

      // A placeholder that does nothing is refused in the page, naming the known ones.
      const text = reply.getByLabel('Reply text', { exact: true });
      await text.fill('Dear {{name}},');
      await reply.getByRole('button', { name: 'Save auto-reply' }).click();
      await expect.poll(() => text.getAttribute('aria-invalid')).toBe('true');
      expect(await reply.locator('.field-problem').textContent()).toContain(
        'Unknown placeholder {{name}}. The placeholders are {{form.name}}',
      );
      expect((await saved()).autoreplyBody).toBeNull();
      // A click inserts too: where the cursor was in the text.
      await text.fill('Dear ,');
      await text.press('End');
      await text.press('ArrowLeft');
      await reply
        .getByRole('group', { name: 'Insert a placeholder into Reply text' })
        .getByRole('button', { name: '{{submission.id}}' })
        .click();
      expect(await text.inputValue()).toBe('Dear {{submission.id}},');
      await reply.getByRole('button', { name: 'Save auto-reply' }).click();
      await reply.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      const after = await saved();
      expect([after.autoreplySubject, after.autoreplyBody]).toEqual([
        'Thanks, {{form.name}} :)!',
        'Dear {{submission.id}},',
      ]);
      // The switch's help says what it does in plain words.
      await reply
        .getByText(
          /On: each \{\{field\.…\}\} in the reply subject and text is replaced by what the visitor typed/,
        )
        .waitFor();
      await expectAccessible(page, 'settings with placeholders');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('on a Free team the Pro settings are shown disabled with why, and a 375 px dark page is axe-clean', async () => {
    const { owner, formId } = await ownerWithForm('free', 'Tuned');
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/settings`,
      width: 375,
      dark: true,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Settings of Tuned' }).waitFor();
      for (const label of ['Reply to the submitter', 'Accept files', 'Message when closed']) {
        const control = page.getByLabel(label);
        expect(await control.isDisabled(), label).toBe(true);
        const why = await control.evaluate(
          (element) =>
            document.getElementById((element.getAttribute('aria-describedby') ?? '').split(' ')[0]!)
              ?.textContent,
        );
        expect(why, label).toMatch(/Needs the Pro plan/);
      }
      expect(await page.getByLabel('Email me each submission').isDisabled()).toBe(false);
      // More recipients are Pro: none can be added, and the list says why.
      const recipients = page.getByRole('group', { name: 'Also send them to' });
      expect(await recipients.getByRole('button', { name: 'Add an address' }).isDisabled()).toBe(
        true,
      );
      await recipients.getByText(/Needs the Pro plan/).waitFor();
      await expectAccessible(page, 'settings, Free, dark, 375 px');
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('the danger zone gives the form a new key after a question, and deletes it once its name is typed', async () => {
    const { owner, formId, saved } = await ownerWithForm('pro', 'Tuned');
    const before = (await saved()).key;
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/settings`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('button', { name: 'Give the form a new key' }).click();
      const ask = page.getByRole('dialog', { name: 'Give the form a new key?' });
      await ask.getByRole('button', { name: 'New key', exact: true }).click();
      await page.getByText(/^New endpoint: /).waitFor();
      expect((await saved()).key).not.toBe(before);

      const remove = page.getByRole('button', { name: 'Delete this form' });
      expect(await remove.isDisabled()).toBe(true);
      await page.getByLabel(/Type the form's name/).fill('Tune');
      expect(await remove.isDisabled()).toBe(true);
      await page.getByLabel(/Type the form's name/).fill('Tuned');
      await remove.click();
      await page.getByRole('heading', { name: 'Forms' }).waitFor();
      expect((await api('GET', `/v1/forms/${formId}`, { key: owner.apiKey })).status).toBe(404);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
