import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { api, stack } from '#test/support/api.ts';
import { chromiumForFile, offMachine, type Visit, visit } from '#test/support/browser.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';

/**
 * The funnel from the hosted page (docs/analytics.md#the-funnel), in
 * Chromium through the local stack: the page's own beacons (a view, the
 * first answer, each page reached) read back in the summary, with the send.
 */

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();

/** A desktop Chrome's User-Agent: headless Chromium names itself HeadlessChrome, a bot's mark. */
const PERSON = {
  userAgent:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

const FORM = {
  fields: [
    { id: 'kind', type: 'radio', label: 'Who for', options: ['Personal', 'Business'] },
    { id: 'company', type: 'text', label: 'Company' },
    { id: 'message', type: 'textarea', label: 'Message' },
  ],
  pages: [
    { id: 'about', title: 'About you', fields: ['kind'] },
    { id: 'business', title: 'Your company', fields: ['company'] },
    { id: 'done', title: 'Your message', fields: ['message'] },
  ],
};

interface Funnel {
  views: number;
  started: number;
  reached: { step: number; page: string; count: number }[];
  sent: number;
}

async function funnelOf(form: TestForm): Promise<Funnel> {
  // Yesterday too: a load just before midnight is read just after it.
  const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
  const summary = await api('GET', `/v1/forms/${form.id}/summary?from=${day(1)}&to=${day(0)}`, {
    key: form.apiKey,
  });
  expect(summary.status, summary.text).toBe(200);
  return summary.body.funnel as Funnel;
}

const heading = (page: Page, name: string) =>
  page.getByRole('heading', { name, exact: true }).waitFor();

describe('the hosted page’s steps', () => {
  it('sends a view, the first answer and each page reached, and nothing answered; the summary counts them', async () => {
    const form = await newForm('free', FORM, { name: 'Quote', type: 'custom' });
    const url = `${stack().baseUrl}/f/${form.key}`;
    const visits: Visit[] = [];
    try {
      // One person looks and leaves.
      const looker = await visit(chromium(), url, PERSON);
      visits.push(looker);
      await heading(looker.page, 'Step 1 of 3: About you');
      await expect.poll(() => funnelOf(form)).toMatchObject({ views: 1 });

      // Another goes through every step and sends.
      const sender = await visit(chromium(), url, PERSON);
      visits.push(sender);
      const { page } = sender;
      await heading(page, 'Step 1 of 3: About you');
      await page.getByLabel('Business').check();
      await page.getByRole('button', { name: 'Next' }).click();
      await heading(page, 'Step 2 of 3: Your company');
      await page.getByRole('textbox', { name: 'Company' }).fill('Acme');
      // Back and Next again: page 2 was reached on this load already, and is not sent again.
      await page.getByRole('button', { name: 'Back' }).click();
      await heading(page, 'Step 1 of 3: About you');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('button', { name: 'Next' }).click();
      await heading(page, 'Step 3 of 3: Your message');
      await page.getByRole('textbox', { name: 'Message' }).fill('A quote for 40 seats');
      // A person takes more than the fill-time minimum.
      await page.waitForFunction(() => performance.now() > 2100);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('#fs-success').waitFor();

      const beacons = sender.requests.filter((r) => r.startsWith(`${url}/views`));
      expect(beacons).toEqual([
        `${url}/views`,
        `${url}/views?reached=started`,
        `${url}/views?reached=2`,
        `${url}/views?reached=3`,
      ]);
      expect(offMachine([...looker.requests, ...sender.requests])).toEqual([]);
      expect(sender.failed).toEqual([]);
      // The send reaches the summary through the table stream.
      await expect
        .poll(() => funnelOf(form), { timeout: 60_000 })
        .toEqual({
          views: 2,
          started: 1,
          reached: [
            { step: 2, page: 'business', count: 1 },
            { step: 3, page: 'done', count: 1 },
          ],
          sent: 1,
        });
    } finally {
      await Promise.all(visits.map((v) => v.close()));
    }
  });
});
