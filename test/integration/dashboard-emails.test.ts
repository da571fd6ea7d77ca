import { describe, expect, it, vi } from 'vitest';
import { signInEmailsTo, signInEmailTo, teamWithOwner } from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import {
  dashboardAs,
  expectAccessible,
  openDashboard,
  signInThroughPage,
} from '#test/support/dashboard.ts';
import { emailsTo, eventually } from '#test/support/delivery.ts';
import { forceFormAttributes } from '#test/support/forms.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

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
        notifyCc: ['sales@example.com', 'desk@example.com'],
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
      // The other recipients as the worker sends to them: one message, in Cc.
      await notification.getByText('sales@example.com, desk@example.com').waitFor();
      // The sample answers by their labels, in the text and the HTML bodies.
      expect(await notification.locator('pre').textContent()).toContain('Ada Lovelace');
      const html = notification.frameLocator('iframe[title="Notification to you: HTML"]');
      await html.getByText('ada@example.com').first().waitFor();
      expect(await html.locator('b').count()).toBe(0);

      const reply = page.getByRole('region', { name: 'Auto-reply to the submitter' });
      await reply.getByText('Thanks from Shop <b>orders</b>').waitFor();
      expect(await reply.locator('pre').textContent()).toContain('We read every message.');
      await reply.getByText('On', { exact: true }).waitFor();
      // The preview links where the real notification does: the submission's page.
      expect(await notification.locator('pre').textContent()).toMatch(
        new RegExp(
          `View submission: ${stack().baseUrl}/app/forms/${formId}/submissions/[0-9a-f-]{36}\\n`,
        ),
      );
      await expectAccessible(page, 'emails');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});

describe('the emails screen marks what a placeholder leaves empty', () => {
  it('answer placeholders while answers may not fill the reply, and an unknown one a form saved before holds', async () => {
    const owner = await teamWithOwner('pro');
    const created = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Desk', type: 'contact' },
    });
    const formId = created.body.id as string;
    const patched = await api('PATCH', `/v1/forms/${formId}`, {
      key: owner.apiKey,
      body: {
        autoreplyEnabled: true,
        autoreplySubject: 'Thanks, {{field.name}}',
        autoreplyBody: 'You wrote: {{field.message}}\nReference {{submission.id}}',
      },
    });
    expect(patched.status, patched.text).toBe(200);
    // As stored before unknown placeholders were refused.
    await forceFormAttributes(formId, { notifySubject: 'Lead {{name}}' });
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/emails`,
    });
    const { page } = dashboard;
    try {
      const reply = page.getByRole('region', { name: 'Auto-reply to the submitter' });
      await reply
        .getByText(/Empty in the sent reply, because .*Let answers fill placeholders/)
        .waitFor();
      expect(await reply.locator('mark').allTextContents()).toEqual([
        '{{field.name}}',
        '{{field.message}}',
      ]);
      expect(await reply.locator('.empty-placeholders').textContent()).toContain(
        '{{field.name}} in the subject, {{field.message}} in the text',
      );
      // What the reply really says: the answers left out.
      await reply.getByText('Thanks,', { exact: true }).waitFor();
      const notification = page.getByRole('region', { name: 'Notification to you' });
      expect(await notification.locator('mark').allTextContents()).toEqual(['{{name}}']);
      await notification.getByText(/Not placeholders, so sent as nothing/).waitFor();
      await expectAccessible(page, 'emails with marks');

      // With answers allowed, nothing is marked and the sample's answers fill in.
      const on = await api('PATCH', `/v1/forms/${formId}`, {
        key: owner.apiKey,
        body: { autoreplyAnswerPlaceholders: true },
      });
      expect(on.status, on.text).toBe(200);
      await page.reload();
      await reply.getByText('Thanks, Ada Lovelace', { exact: true }).waitFor();
      expect(await reply.locator('mark').count()).toBe(0);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});

describe('the notification link', () => {
  it('opens the submission in the dashboard: signed out, the person signs in with the emailed code and lands on it', async () => {
    const owner = await teamWithOwner('pro');
    const created = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Bookings', type: 'contact' },
    });
    const formId = created.body.id as string;
    const post = await submit(created.body.key as string, {
      json: { name: 'Grace Hopper', email: 'grace@example.com', message: 'A table for two' },
      from: freshVisitor(),
    });
    expect(post.status, post.text).toBe(200);
    const submissionId = post.body?.submissionId as string;

    const notifications = await eventually(
      async () => (await emailsTo(owner.email)).filter((mail) => mail.subject.includes('Bookings')),
      (list) => list.length > 0,
    );
    const mail = notifications[0];
    expect(mail, 'the notification reached the owner').toBeDefined();
    const link = /View submission: (\S+)/.exec(mail!.body.text ?? '')?.[1];
    const pagePath = `/app/forms/${formId}/submissions/${submissionId}`;
    expect(link).toBe(`${stack().baseUrl}${pagePath}`);
    // The HTML part links the same page.
    expect(mail!.body.html).toContain(`<a href="${link}">View submission</a>`);

    // A fresh browser with no session opens the link as a mail reader would.
    const dashboard = await openDashboard(chromium(), {
      path: link!.slice(`${stack().baseUrl}/app`.length),
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await signInThroughPage(page, owner.email);
      await expect.poll(() => new URL(page.url()).pathname).toBe(pagePath);
      await page.getByText('A table for two').waitFor();
      expect(await page.getByText('Grace Hopper').count()).toBeGreaterThan(0);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it("opens the submission in the dashboard: signed out, the sign-in email's link opened in a new tab lands on it", async () => {
    const owner = await teamWithOwner('pro');
    const created = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Tables', type: 'contact' },
    });
    const formId = created.body.id as string;
    const post = await submit(created.body.key as string, {
      json: { name: 'Ada Lovelace', email: 'ada@example.com', message: 'A table by the window' },
      from: freshVisitor(),
    });
    const pagePath = `/app/forms/${formId}/submissions/${post.body?.submissionId as string}`;
    const dashboard = await openDashboard(chromium(), { path: pagePath.slice('/app'.length) });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      const seen = await signInEmailsTo(owner.email);
      await page.getByLabel('Email address').fill(owner.email);
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      const { token } = await signInEmailTo(owner.email, seen);
      // A mail reader opens the link in a new tab of the same browser.
      const tab = await page.context().newPage();
      await tab.goto(`${stack().baseUrl}/app/sign-in#token=${token}`);
      await expect.poll(() => new URL(tab.url()).pathname).toBe(pagePath);
      await tab.getByText('A table by the window').waitFor();
    } finally {
      await dashboard.close();
    }
  });
});
