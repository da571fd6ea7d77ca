import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedIn, teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { expectAccessible, openDashboard } from '#test/support/dashboard.ts';
import { eventually } from '#test/support/delivery.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

vi.setConfig({ testTimeout: 120_000 });

let browser: Browser;
let cookie: string;
let screens: [string, string, string, string?][];
/** A form whose inbox this browser shows as a table (docs/dashboard.md#the-table-view). */
let tableFormId: string;

beforeAll(async () => {
  browser = await launchChromium();
  const owner = await teamWithOwner('pro');
  const form = await api('POST', '/v1/forms', { key: owner.apiKey, body: { name: 'Checked' } });
  const empty = await api('POST', '/v1/forms', { key: owner.apiKey, body: { name: 'Empty' } });
  const post = await submit(form.body.key as string, {
    json: { name: 'Ada', email: 'not an address', message: 'A message long enough to preview' },
    from: freshVisitor(),
  });
  // A notification that bounced: the submission's Emails section and the Privacy screen's list.
  const bouncing = `bounce+${crypto.randomUUID().slice(0, 8)}@simulator.amazonses.com`;
  const bounced = await api('POST', '/v1/forms', { key: owner.apiKey, body: { name: 'Bounced' } });
  await api('PATCH', `/v1/forms/${bounced.body.id}`, {
    key: owner.apiKey,
    body: { notifyEmail: bouncing },
  });
  const bouncedPost = await submit(bounced.body.key as string, {
    json: { message: 'To a mailbox that does not exist' },
    from: freshVisitor(),
  });
  await eventually(
    async () =>
      (await api('GET', '/v1/team/suppressions', { key: owner.apiKey })).body
        .suppressions as unknown[],
    (listed) => listed.length === 1,
  );
  // Slack connected (its log empty) beside Discord not connected: both states of a section.
  await api('PUT', `/v1/forms/${empty.body.id}/integrations/slack`, {
    key: owner.apiKey,
    body: { webhookUrl: 'https://hooks.slack.com/services/T000/B000/XXXXXXXX' },
  });
  tableFormId = bounced.body.id as string;
  cookie = await signedIn(owner.email);
  const id = form.body.id as string;
  // [screen, path, a heading it shows once drawn, and a text it shows once read]
  screens = [
    ['forms', '', 'Forms'],
    ['inbox', `/forms/${id}`, 'Checked'],
    ['inbox, table view', `/forms/${bounced.body.id}`, 'Bounced', 'Received'],
    ['inbox, spam folder (empty)', `/forms/${id}?folder=spam`, 'Checked'],
    ['search', `/forms/${id}?q=message`, '1 match for “message”'],
    ['submission', `/forms/${id}/submissions/${post.body?.submissionId}`, 'Where it came from'],
    ['share', `/forms/${id}/share`, 'Share Checked'],
    ['summary', `/forms/${id}/summary`, 'Checked: summary'],
    ['webhook', `/forms/${id}/webhook`, 'Connect a webhook'],
    ['integrations', `/forms/${empty.body.id}/integrations`, 'Slack deliveries'],
    ['team', '/team', 'Members'],
    ['team privacy', '/team/privacy', "Senders' internet addresses", bouncing],
    [
      'submission, its emails',
      `/forms/${bounced.body.id}/submissions/${bouncedPost.body?.submissionId}`,
      'Emails',
      'Notification to the team: Bounced',
    ],
    ['settings', `/forms/${id}/settings`, 'Settings of Checked'],
    ['fields', `/forms/${id}/fields`, 'Fields of Checked'],
    ['design', `/forms/${id}/design`, 'Design of Checked'],
    ['emails', `/forms/${id}/emails`, 'Emails of Checked'],
    ['new form without submissions', `/forms/${empty.body.id}`, 'No submissions yet'],
    ['not found', '/nowhere', 'Not found'],
  ];
});
afterAll(async () => {
  await browser.close();
});

describe('every screen has no serious or critical axe finding', () => {
  // The four variants are pages of their own: they run at once, so Chromium, the stack and the
  // axe sweeps share both cores instead of waiting on one another.
  it.concurrent.each([
    ['light, 1280 px', { dark: false, width: 1280 }],
    ['dark, 1280 px', { dark: true, width: 1280 }],
    ['light, 375 px', { dark: false, width: 375 }],
    ['dark, 375 px', { dark: true, width: 375 }],
  ] as const)('%s', async (_variant, options) => {
    const signedOut = await openDashboard(browser, options);
    try {
      await signedOut.page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await expectAccessible(signedOut.page, `sign-in, ${_variant}`);
    } finally {
      await signedOut.close();
    }
    const dashboard = await openDashboard(browser, { ...options, cookie });
    // The view is the browser's choice, kept per form: this form's inbox is a table.
    // (The script runs in every frame: the email previews' sandboxed frames have no storage.)
    await dashboard.context.addInitScript((id) => {
      if (window.top !== window) return;
      localStorage.setItem(`form-service:inbox-view:${id}`, JSON.stringify({ view: 'table' }));
    }, tableFormId);
    try {
      for (const [name, path, heading, text] of screens) {
        await dashboard.page.goto(`${new URL(dashboard.page.url()).origin}/app${path}`);
        await dashboard.page.getByRole('heading', { name: heading }).first().waitFor();
        if (text) await dashboard.page.getByText(text).first().waitFor();
        await expectAccessible(dashboard.page, `${name}, ${_variant}`);
        const overflow = await dashboard.page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, `${name}, ${_variant}: no sideways scrolling`).toBeLessThanOrEqual(0);
      }
      // The browser's own line for the one refusal asked for: the webhook screen finds none (404).
      expect(
        dashboard.errors.filter((error) => !/status of 404/.test(error)),
        'console errors',
      ).toEqual([]);
      expect(dashboard.errors.filter((error) => /status of 404/.test(error)).length).toBe(1);
    } finally {
      await dashboard.close();
    }
  });
});
