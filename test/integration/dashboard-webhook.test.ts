import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { retryWindowWords } from '#domain/retry-window.ts';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';
import { eventually, newReceiver } from '#test/support/delivery.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';
import { TEST_WEBHOOK_RETRY_DELAYS } from './stack-settings.ts';

vi.setConfig({ testTimeout: 120_000 });

let browser: Browser;
let receiver: WebhookReceiver;
beforeAll(async () => {
  browser = await launchChromium();
  receiver = await newReceiver();
});
afterAll(async () => {
  await browser.close();
  await receiver.close();
});

/** Console errors but the browser's own line for each refused call (the 400 and 404 asked for). */
const unexpected = (errors: string[]) =>
  errors.filter((error) => !error.startsWith('Failed to load resource'));

async function ownerWithForm(plan: 'free' | 'pro') {
  const owner = await teamWithOwner(plan);
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: 'Hooked', type: 'contact' },
  });
  return { owner, formId: created.body.id as string, key: created.body.key as string };
}

describe('the webhook screen', () => {
  it('connects an https address (refusing another at the field), reveals the secret, sends a test that arrives, retries a failed delivery, rotates the secret and disconnects', async () => {
    const { owner, formId } = await ownerWithForm('pro');
    const dashboard = await dashboardAs(browser, owner.email, { path: `/forms/${formId}` });
    const { page } = dashboard;
    try {
      await page.getByRole('link', { name: 'Webhook' }).click();
      await page.getByRole('heading', { name: 'Connect a webhook' }).waitFor();
      // As this stack's worker retries (docs/delivery.md#retries: `1,2,3` here, "a few
      // seconds"; "about two hours" by default), not a figure of its own ("about a day").
      expect(retryWindowWords(TEST_WEBHOOK_RETRY_DELAYS)).toBe('a few seconds');
      await page
        .getByRole('region', { name: 'Connect a webhook' })
        .getByText('retried for a few seconds when it fails', { exact: false })
        .waitFor();
      await page.getByLabel('Webhook URL').fill('http://127.0.0.1/plain');
      await page.getByRole('button', { name: 'Connect' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/https/);
      expect(await page.getByLabel('Webhook URL').getAttribute('aria-invalid')).toBe('true');

      await page.getByLabel('Webhook URL').fill(receiver.url);
      await page.getByRole('button', { name: 'Connect' }).click();
      await page.getByRole('heading', { name: 'Where submissions go' }).waitFor();
      await page.getByRole('button', { name: 'Reveal the signing secret' }).click();
      const secret = await page.getByLabel('Signing secret', { exact: true }).inputValue();
      const stored = await api('GET', `/v1/forms/${formId}/webhook`, { key: owner.apiKey });
      expect(secret).toBe(stored.body.secret);
      expect(stored.body.url).toBe(receiver.url);
      await expectAccessible(page, 'webhook, connected');

      // A test that arrives, then one the receiver refuses until it is retried by hand.
      const before = receiver.received.length;
      await page.getByRole('button', { name: 'Send a test' }).click();
      await receiver.waitFor(before + 1);
      await expect
        .poll(() => page.getByRole('cell', { name: 'Delivered' }).count(), { timeout: 20_000 })
        .toBe(1);
      // Four attempts, 1, 2 and 6 s apart in the test stack, all answered 500: failed.
      receiver.script(Array(4).fill({ status: 500 }), { status: 204 });
      await page.getByRole('button', { name: 'Send a test' }).click();
      await expect
        .poll(
          async () => {
            await page.reload();
            await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
            return page.getByRole('cell', { name: /^Failed/ }).count();
          },
          { timeout: 40_000, interval: 1000 },
        )
        .toBe(1);
      await page.getByRole('button', { name: /^Retry the delivery/ }).click();
      await expect
        .poll(
          async () => {
            await page.reload();
            await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
            return page.getByRole('cell', { name: 'Delivered' }).count();
          },
          { timeout: 20_000, interval: 1000 },
        )
        .toBe(2);

      await page.getByRole('button', { name: 'Rotate the secret' }).click();
      const rotate = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
      await rotate.getByRole('button', { name: 'Rotate', exact: true }).click();
      await expect
        .poll(() => page.getByLabel('Signing secret', { exact: true }).inputValue())
        .not.toBe(secret);
      const rotated = await api('GET', `/v1/forms/${formId}/webhook`, { key: owner.apiKey });
      expect(await page.getByLabel('Signing secret', { exact: true }).inputValue()).toBe(
        rotated.body.secret,
      );

      await page.getByRole('button', { name: 'Disconnect' }).click();
      const disconnect = page.getByRole('dialog', { name: 'Disconnect the webhook?' });
      await disconnect.getByRole('button', { name: 'Disconnect', exact: true }).click();
      await page.getByRole('heading', { name: 'Connect a webhook' }).waitFor();
      expect((await api('GET', `/v1/forms/${formId}/webhook`, { key: owner.apiKey })).status).toBe(
        404,
      );
      expect(unexpected(dashboard.errors)).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('opens a delivery by keyboard to the body sent (pretty JSON, shown as text) and each attempt’s answer', async () => {
    const { owner, formId, key } = await ownerWithForm('pro');
    await api('PUT', `/v1/forms/${formId}/webhook`, {
      key: owner.apiKey,
      body: { url: receiver.url },
    });
    // The first attempt is refused for now with a body, the second is taken.
    receiver.script([{ status: 503, body: 'Busy <b>now</b>, "later"' }], { status: 204 });
    const message = '<img src=x onerror="alert(1)"> Hi & bye';
    const posted = await submit(key, {
      json: { name: 'Ada', email: 'ada@example.com', message },
      from: freshVisitor(),
    });
    expect(posted.status, posted.text).toBe(200);
    const submissionId = posted.body?.submissionId as string;
    expect(submissionId).toEqual(expect.any(String));
    await eventually(
      () => api('GET', `/v1/forms/${formId}/webhook/deliveries`, { key: owner.apiKey }),
      (answer) =>
        (answer.body.deliveries as { status: string }[]).some((d) => d.status === 'delivered'),
    );

    const dashboard = await dashboardAs(browser, owner.email, { path: `/forms/${formId}/webhook` });
    const { page } = dashboard;
    try {
      await page.getByRole('cell', { name: 'Delivered' }).waitFor();
      const details = page.getByRole('button', { name: /^Details of the delivery of/ });
      expect(await details.getAttribute('aria-expanded')).toBe('false');
      await details.focus();
      await page.keyboard.press('Enter');
      expect(await details.getAttribute('aria-expanded')).toBe('true');

      const body = page.getByRole('region', { name: 'The body sent' });
      await body.waitFor();
      const sent = JSON.parse((await body.textContent())!);
      expect(sent).toMatchObject({
        type: 'submission.created',
        data: { formId, test: false, spam: false, fields: { message, name: 'Ada' } },
      });
      expect(sent.data.submissionId).toBe(submissionId);
      // Pretty-printed, and the answer is text, not markup.
      expect(await body.textContent()).toContain('\n  "data": {\n');
      expect(await body.locator('img').count()).toBe(0);

      const attempts = page.getByRole('listitem').filter({ hasText: /^Attempt \d/ });
      expect(await attempts.count()).toBe(2);
      expect(await attempts.nth(0).textContent()).toContain('503, a server error, tried again');
      expect(
        await page.getByRole('region', { name: 'The answer to attempt 1' }).textContent(),
      ).toBe('Busy <b>now</b>, "later"');
      expect(await attempts.nth(1).textContent()).toContain('204, accepted');
      expect(await attempts.nth(1).textContent()).toContain('Its answer had no body.');
      await expectAccessible(page, 'webhook, a delivery opened');

      // Enter again closes it; focus stayed on the button.
      await page.keyboard.press('Enter');
      expect(await details.getAttribute('aria-expanded')).toBe('false');
      expect(await body.count()).toBe(0);
      expect(unexpected(dashboard.errors)).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('on a Free team says webhooks are Pro, at 375 px in dark mode, axe-clean', async () => {
    const { owner, formId } = await ownerWithForm('free');
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${formId}/webhook`,
      width: 375,
      dark: true,
    });
    const { page } = dashboard;
    try {
      await page.getByText('Webhooks are a Pro feature').waitFor();
      expect(await page.getByRole('button', { name: 'Connect' }).count()).toBe(0);
      await expectAccessible(page, 'webhook, Free, dark, 375 px');
      expect(unexpected(dashboard.errors)).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
