import { mkdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { api, stack } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible, summaryFact } from '#test/support/dashboard.ts';
import { emailsTo, eventually, type SentEmail } from '#test/support/delivery.ts';
import { ownerWithForm } from '#test/support/settings-screens.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

/**
 * Issue 43's dashboard half of confirm by email, in Chromium through the
 * local stack (docs/dashboard.md#confirm-by-email): the setting ticked and
 * saved, a visitor's post on the hosted page answered "Check your inbox to
 * confirm", the emailed link followed signed out and its button pressed;
 * meanwhile the inbox's "Waiting for confirmation" folder with its count,
 * where only Delete applies, and the submission's state before and after.
 */

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();
const OUTPUT_DIR = new URL('../../.local/test-output/', import.meta.url);
mkdirSync(OUTPUT_DIR, { recursive: true });

const isConfirmation = (email: SentEmail) => email.subject.startsWith('Confirm your answer to');
const linkIn = (email: SentEmail) =>
  /https?:\/\/\S+\/c\/[A-Za-z0-9_.-]+/.exec(email.body.text ?? '')?.[0];

describe('confirm by email in the dashboard', () => {
  it('ticked in Settings; the hosted page says to check the inbox; the folder, then the click, then "Confirmed at"', async () => {
    const { owner, formId, saved } = await ownerWithForm('free', 'RSVP');
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/settings`,
    });
    const { page } = dashboard;
    const address = `ada-${crypto.randomUUID().slice(0, 8)}@example.com`;
    try {
      const security = page.getByRole('form', { name: /^Spam and security/ });
      const confirm = security.getByLabel('Ask people to confirm their email');
      expect(await confirm.isChecked()).toBe(false);
      await confirm.check();
      await security.getByText('only once they confirm').waitFor();
      await security.getByText('It reads Email (email).').waitFor();
      await security.getByRole('button', { name: 'Save spam and security' }).click();
      await security.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect((await saved()).confirmEmail).toEqual({ field: 'email' });
      const form = await saved();

      // A visitor on the hosted page, in a browser of their own.
      const visitor = await chromium().newContext();
      try {
        const hosted = await visitor.newPage();
        await hosted.goto(`${stack().baseUrl}/f/${form.key as string}`);
        await hosted.getByLabel('Name').fill('Ada');
        await hosted.getByLabel('Email').fill(address);
        await hosted.getByLabel('Message').fill('Two seats, please');
        await hosted.getByRole('button', { name: 'Send' }).click();
        await hosted.getByText('Check your inbox to confirm').waitFor();
        expect(await hosted.content()).not.toContain(address);
      } finally {
        await visitor.close();
      }
      const emails = await eventually(
        () => emailsTo(address),
        (list) => list.some(isConfirmation),
      );
      const link = linkIn(emails.find(isConfirmation)!);
      expect(link, 'the link in the confirmation email').toBeDefined();

      // Before the click: in Waiting for confirmation, with its count, where only Delete applies.
      await page.goto(`${stack().baseUrl}/app/forms/${formId}?folder=pending`);
      const folders = page.getByRole('navigation', { name: 'Folders' });
      const pending = folders.getByRole('link', { name: /^Waiting for confirmation/ });
      await expect.poll(() => pending.textContent()).toBe('Waiting for confirmation 1');
      expect(await folders.getByRole('link', { name: /^All/ }).textContent()).toBe('All 0');
      const row = page.getByRole('row').filter({ hasText: 'Ada' });
      await row.getByText(/^waiting (under 1 min|1 min)$/).waitFor();
      expect(await row.getByRole('button', { name: /^Star/ }).count()).toBe(0);
      await row.getByRole('checkbox').check();
      const bulk = page.getByRole('group', { name: '1 selected' });
      await bulk.getByRole('button', { name: 'Delete' }).waitFor();
      for (const triage of ['Mark read', 'Star', 'Spam'])
        expect(await bulk.getByRole('button', { name: triage, exact: true }).count()).toBe(0);
      await page.keyboard.press('s');
      await page.keyboard.press('e');
      await expectAccessible(page, 'the Waiting for confirmation folder');
      await page.screenshot({
        path: new URL('dashboard-confirm-pending.png', OUTPUT_DIR).pathname,
        fullPage: true,
      });

      // Its page: waiting since when, and no triage but Delete; opening it does not mark it read.
      await row.getByRole('link').first().click();
      await page.getByText('Waiting for confirmation since').waitFor();
      const tools = page.locator('main .tools');
      await tools.getByRole('button', { name: 'Delete' }).waitFor();
      for (const triage of ['Star', 'Mark read', 'Spam'])
        expect(await tools.getByRole('button', { name: triage, exact: true }).count()).toBe(0);
      await page.keyboard.press('s');
      const list = await api<{ items: { read: boolean; starred: boolean }[] }>(
        'GET',
        `/v1/forms/${formId}/submissions?filter=pending`,
        { key: owner.apiKey },
      );
      expect(list.body.items).toMatchObject([{ read: false, starred: false }]);
      await expectAccessible(page, 'a submission waiting for confirmation');
      await page.screenshot({
        path: new URL('dashboard-confirm-waiting.png', OUTPUT_DIR).pathname,
        fullPage: true,
      });

      // The link, signed out (a fresh browser context): one button, then the confirmed words.
      const clicker = await chromium().newContext();
      try {
        const confirmPage = await clicker.newPage();
        await confirmPage.goto(link!);
        await confirmPage.getByRole('button', { name: 'Confirm my answer' }).click();
        await confirmPage.getByText('Thank you, your answer is confirmed').waitFor();
      } finally {
        await clicker.close();
      }

      await page.reload();
      await page.getByText(/^Confirmed at /).waitFor();
      expect(await page.getByText('Waiting for confirmation since').count()).toBe(0);
      await tools.getByRole('button', { name: 'Star', exact: true }).waitFor();
      await expectAccessible(page, 'a confirmed submission');
      await page.screenshot({
        path: new URL('dashboard-confirm-confirmed.png', OUTPUT_DIR).pathname,
        fullPage: true,
      });

      // The summary says how many were never confirmed, on a form that asks.
      await page.goto(`${stack().baseUrl}/app/forms/${formId}/summary`);
      expect(await summaryFact(page, 'Not confirmed').textContent()).toBe('0');
      await page.getByText('Not confirmed: answers whose visitors did not press').waitFor();
      expect(dashboard.errors).toEqual([]);
      expect(dashboard.failed).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a field made optional meanwhile: the save’s refusal at confirmEmail.field is said at the tick', async () => {
    const { owner, formId, saved } = await ownerWithForm('free', 'Signups');
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/settings`,
    });
    const { page } = dashboard;
    try {
      const security = page.getByRole('form', { name: /^Spam and security/ });
      const confirm = security.getByLabel('Ask people to confirm their email');
      await confirm.waitFor();
      // Another tab makes the email field optional after this screen read the form.
      const fields = (await saved()).fields as { id: string }[];
      const loosened = await api('PATCH', `/v1/forms/${formId}`, {
        key: owner.apiKey,
        body: {
          fields: fields.map((field) =>
            field.id === 'email' ? { ...field, required: false } : field,
          ),
        },
      });
      expect(loosened.status, loosened.text).toBe(200);
      await confirm.check();
      await security.getByRole('button', { name: 'Save spam and security' }).click();
      await expect.poll(() => confirm.getAttribute('aria-invalid')).toBe('true');
      await security.locator('#setting-confirmEmail-problem', { hasText: 'required' }).waitFor();
      expect((await saved()).confirmEmail).toBeNull();
      await expectAccessible(page, 'the confirm tick refused');
      // The browser logs the refused request itself; nothing else went wrong.
      expect(dashboard.errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
      expect(dashboard.failed).toEqual([expect.stringMatching(/^400 .*\/v1\/forms\//)]);
    } finally {
      await dashboard.close();
    }
  });

  it('at 375 px: the folder’s one action, Delete, empties it', async () => {
    const { owner, formId, saved } = await ownerWithForm('free', 'Waitlist');
    await api('PATCH', `/v1/forms/${formId}`, {
      key: owner.apiKey,
      body: { confirmEmail: { field: 'email' } },
    });
    const key = (await saved()).key as string;
    for (const name of ['Grace', 'Alan']) {
      const posted = await submit(key, {
        json: { name, email: `${name.toLowerCase()}@example.com`, message: 'Me too' },
        from: freshVisitor(),
      });
      expect(posted.body).toMatchObject({ ok: true, pending: 'confirm_email' });
    }
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}?folder=pending`,
      width: 375,
    });
    const { page } = dashboard;
    try {
      const pending = page
        .getByRole('navigation', { name: 'Folders' })
        .getByRole('link', { name: /^Waiting for confirmation/ });
      await expect.poll(() => pending.textContent()).toBe('Waiting for confirmation 2');
      // The folders scroll sideways on a phone: the open one, last, is brought into sight.
      await expect
        .poll(() =>
          pending.evaluate((link) => {
            const box = link.getBoundingClientRect();
            return box.left >= 0 && box.right <= window.innerWidth;
          }),
        )
        .toBe(true);
      await page.getByText('Here you can only delete them.').waitFor();
      await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
      await expectAccessible(page, 'the Waiting for confirmation folder at 375 px');
      await page.screenshot({
        path: new URL('dashboard-confirm-pending-375.png', OUTPUT_DIR).pathname,
        fullPage: true,
      });
      await page
        .getByRole('group', { name: '2 selected' })
        .getByRole('button', { name: 'Delete' })
        .click();
      const question = page.getByRole('dialog', { name: 'Delete 2 submissions?' });
      await question.getByText('their confirmation links stop working').waitFor();
      await question.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => pending.textContent()).toBe('Waiting for confirmation 0');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
