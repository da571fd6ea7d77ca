import { mkdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { api, stack } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible, tabTo } from '#test/support/dashboard.ts';
import { emailsTo, eventually } from '#test/support/delivery.ts';
import { ownerWithForm } from '#test/support/settings-screens.ts';

/**
 * The auto-reply's placeholders (docs/dashboard.md#settings-and-fields):
 * answer placeholders are offered only where answers fill them; a button
 * says what letting answers fill them allows and, confirmed, turns it on; a
 * reply that would go out with blanks is refused; the sender name stands
 * beside the auto-reply. Then a visitor posts and the reply reads "Hi Ada,".
 */

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();
const OUTPUT_DIR = new URL('../../.local/test-output/', import.meta.url);
mkdirSync(OUTPUT_DIR, { recursive: true });

describe('auto-reply placeholders only where answers fill them', () => {
  for (const view of [
    { width: 1280, dark: false },
    { width: 375, dark: true },
  ]) {
    const where = `${view.width} px${view.dark ? ', dark' : ''}`;
    it(`offers answers only once they fill, turning that on after saying what it allows; the reply then says "Hi Ada," (${where})`, async () => {
      const { owner, formId, saved } = await ownerWithForm('pro', 'Bookings');
      const form = await saved();
      await api('PATCH', `/v1/forms/${formId}`, {
        key: owner.apiKey,
        body: { notifyFromName: 'Acme Bookings' },
      });
      const dashboard = await dashboardAs(chromium(), owner.email, {
        path: `/forms/${formId}/settings`,
        ...view,
      });
      const { page } = dashboard;
      try {
        const reply = page.getByRole('form', { name: /^Auto-reply/ });
        // The sender, beside the auto-reply.
        await reply
          .getByText('Sent from “Acme Bookings”, the sender name of this form’s emails.')
          .waitFor();
        const buttons = reply.getByRole('group', { name: 'Insert a placeholder into Reply text' });
        await buttons.getByRole('button', { name: '{{form.name}}' }).waitFor();
        expect(await buttons.getByRole('button', { name: '{{field.name}}' }).count()).toBe(0);

        // By keyboard: the reply on, then "Use answers…", read, confirmed.
        await tabTo(page, reply.getByLabel('Reply to the submitter'));
        await page.keyboard.press('Space');
        const useAnswers = buttons.getByRole('button', { name: 'Use answers in the reply…' });
        await tabTo(page, useAnswers);
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', {
          name: 'Let answers fill placeholders in the reply?',
        });
        await dialog.waitFor();
        expect(await dialog.textContent()).toContain(
          'anyone can have a mail with words of their choosing sent in your name to anyone',
        );
        await expectAccessible(page, `the question before answers fill the reply at ${where}`);
        await page.screenshot({
          path: new URL(`dashboard-autoreply-answers-${view.width}.png`, OUTPUT_DIR).pathname,
        });
        await tabTo(page, dialog.getByRole('button', { name: 'Let answers fill them' }));
        await page.keyboard.press('Enter');
        const answersSwitch = reply.getByLabel('Let answers fill placeholders in the reply');
        await expect.poll(() => answersSwitch.isChecked()).toBe(true);
        await expect
          .poll(() => answersSwitch.evaluate((element) => element === document.activeElement))
          .toBe(true);

        // Now the answers are offered, and one goes in where the cursor is.
        const text = reply.getByLabel('Reply text', { exact: true });
        await text.fill('Hi ,\nSee you soon.');
        await text.press('Control+Home');
        await text.press('ArrowRight');
        await text.press('ArrowRight');
        await text.press('ArrowRight');
        const name = buttons.getByRole('button', { name: '{{field.name}}' });
        await tabTo(page, name);
        await page.keyboard.press('Enter');
        await expect.poll(() => text.inputValue()).toBe('Hi {{field.name}},\nSee you soon.');
        const save = reply.getByRole('button', { name: 'Save auto-reply' });
        await tabTo(page, save);
        await page.keyboard.press('Enter');
        await reply.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
        expect(await saved()).toMatchObject({
          autoreplyEnabled: true,
          autoreplyAnswerPlaceholders: true,
          autoreplyBody: 'Hi {{field.name}},\nSee you soon.',
        });
        await expectAccessible(page, `the auto-reply saved at ${where}`);
        expect(dashboard.errors).toEqual([]);
      } finally {
        await dashboard.close();
      }

      // A visitor posts on the hosted page; the reply in the mail inbox greets them by name.
      const visitor = await chromium().newPage();
      const address = `ada-${crypto.randomUUID().slice(0, 8)}@example.com`;
      try {
        await visitor.goto(`${stack().baseUrl}/f/${form.key as string}`);
        await visitor.getByLabel('Name').fill('Ada');
        await visitor.getByLabel('Email').fill(address);
        await visitor.getByLabel('Message').fill('A table for two');
        await visitor.getByRole('button', { name: 'Send' }).click();
        await visitor.getByText('Your submission has been received.').waitFor();
      } finally {
        await visitor.close();
      }
      const [sent] = await eventually(
        () => emailsTo(address),
        (emails) => emails.length > 0,
      );
      expect(sent?.body.text).toContain('Hi Ada,\nSee you soon.');
      expect(sent?.from).toContain('Acme Bookings');
    });
  }

  it('a reply that would go out with blanks is refused at its text, naming them; the sender link leads to the sender name', async () => {
    const { owner, formId, saved } = await ownerWithForm('pro', 'Bookings');
    await api('PATCH', `/v1/forms/${formId}`, {
      key: owner.apiKey,
      body: { autoreplyEnabled: true, autoreplyBody: 'Hi {{field.name}},' },
    });
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/settings`,
    });
    const { page } = dashboard;
    try {
      const reply = page.getByRole('form', { name: /^Auto-reply/ });
      const subject = reply.getByLabel('Reply subject', { exact: true });
      await subject.fill('Thanks');
      await reply.getByRole('button', { name: 'Save auto-reply' }).click();
      await page
        .getByRole('heading', { name: 'One thing to correct: nothing was saved' })
        .waitFor();
      const text = reply.getByLabel('Reply text', { exact: true });
      expect(await text.getAttribute('aria-invalid')).toBe('true');
      expect(await reply.locator('.field-problem').textContent()).toBe(
        '{{field.name}} would be sent empty: answers fill placeholders only with “Let answers fill placeholders in the reply” on. Remove it, or turn that on.',
      );
      expect((await saved()).autoreplySubject).toBeNull();

      await reply.getByRole('button', { name: 'Change the sender name' }).click();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.id))
        .toBe('setting-notifyFromName');
      await expectAccessible(page, 'a refused auto-reply');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
