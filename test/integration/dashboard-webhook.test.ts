import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';
import { newReceiver } from '#test/support/delivery.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';

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
  return { owner, formId: created.body.id as string };
}

describe('the webhook screen', () => {
  it('connects an https address (refusing another at the field), reveals the secret, sends a test that arrives, retries a failed delivery, rotates the secret and disconnects', async () => {
    const { owner, formId } = await ownerWithForm('pro');
    const dashboard = await dashboardAs(browser, owner.email, { path: `/forms/${formId}` });
    const { page } = dashboard;
    try {
      await page.getByRole('link', { name: 'Webhook' }).click();
      await page.getByRole('heading', { name: 'Connect a webhook' }).waitFor();
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
      // Four attempts, 1, 2 and 3 s apart in the test stack, all answered 500: failed.
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
