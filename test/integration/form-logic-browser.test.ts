import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import {
  axeFindings,
  chromiumForFile,
  offMachine,
  siteServing,
  type Visit,
  visit,
} from '#test/support/browser.ts';
import { dashboardAs } from '#test/support/dashboard.ts';
import { storedItems } from '#test/support/forms.ts';

/**
 * Forms that branch, in Chromium through the local stack
 * (docs/uploads-and-pages.md#steps): one three-step form whose second step
 * an answer skips, filled as a visitor would on the hosted page, the embed,
 * and the HTML form copied from the Share screen and pasted into another
 * website, with and without its logic script. The same answers are stored
 * all four ways: what the browser hides is never posted, and what the
 * pasted form without script posts the server's walk drops. No request may
 * leave this machine.
 */

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();

/** Git-ignored: screenshots for a human to look at. */
const OUTPUT_DIR = new URL('../../.local/test-output/', import.meta.url);
mkdirSync(OUTPUT_DIR, { recursive: true });

/**
 * Step 1 "About you": a name, a topic, and "Which?" only for the topic Other.
 * Step 2 "Your company" (a required company name), skipped for Support.
 * Step 3 "Your message": the message, a plan the URL may fill, and a hidden
 * source the URL fills.
 */
const LOGIC = {
  fields: [
    { id: 'name', type: 'text', label: 'Name', required: true },
    {
      id: 'topic',
      type: 'radio',
      label: 'Topic',
      options: ['Sales', 'Support', 'Other'],
      required: true,
    },
    {
      id: 'detail',
      type: 'text',
      label: 'Which?',
      required: true,
      showIf: { all: [{ field: 'topic', op: 'eq', value: 'Other' }] },
    },
    { id: 'company', type: 'text', label: 'Company', required: true },
    { id: 'seats', type: 'number', label: 'Seats', min: 1, max: 500 },
    { id: 'message', type: 'textarea', label: 'Message', required: true },
    { id: 'plan', type: 'select', label: 'Plan', options: ['Free', 'Pro'], prefill: true },
    { id: 'source', type: 'hidden', maxLength: 20 },
  ],
  pages: [
    {
      id: 'about',
      title: 'About you',
      fields: ['name', 'topic', 'detail'],
      next: [{ if: { any: [{ field: 'topic', op: 'eq', value: 'Support' }] }, goTo: 'write' }],
    },
    { id: 'company', title: 'Your company', fields: ['company', 'seats'] },
    { id: 'write', title: 'Your message', fields: ['message', 'plan', 'source'] },
  ],
};

/** What the branch taken stores, whichever way it was sent. */
const STORED = {
  name: 'Ada Lovelace',
  topic: 'Support',
  message: 'It broke',
  plan: '',
  source: '',
};

async function logicForm() {
  const owner = await teamWithOwner('pro');
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: 'Branching', type: 'custom' },
  });
  expect(created.status, created.text).toBe(201);
  const formId = created.body.id as string;
  const patched = await api('PATCH', `/v1/forms/${formId}`, { key: owner.apiKey, body: LOGIC });
  expect(patched.status, patched.text).toBe(200);
  return { ...owner, formId, key: created.body.key as string };
}

async function shareSnippet(browser: Browser, email: string, formId: string): Promise<string> {
  const dashboard = await dashboardAs(browser, email, { path: `/forms/${formId}/share` });
  try {
    const field = dashboard.page.getByLabel('HTML form', { exact: true });
    await field.waitFor();
    return await field.inputValue();
  } finally {
    await dashboard.close();
  }
}

const sitePage = (body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A customer's site</title><link rel="icon" href="data:,"></head>
<body><main><h1>Write to us</h1>
${body}
</main></body></html>`;

async function onlyStored(formId: string, count: number) {
  await expect.poll(async () => (await storedItems(formId)).length).toBe(count);
  const items = (await storedItems(formId)) as { sk: string; data: Record<string, string> }[];
  return items.sort((a, b) => (a.sk < b.sk ? -1 : 1)).at(-1)!;
}

/** A person takes more than the fill-time minimum: the pasted form's post is checked by it. */
const afterFillTime = (page: Page) => page.waitForFunction(() => performance.now() > 2100);

/**
 * The visitor's way through the steps: Other first ("Which?" appears, is
 * typed into), then Support (it goes, and the company step with it), Next
 * past an empty company never asked, the message, Send.
 */
async function throughTheSteps(page: Page, heading: (name: string) => Promise<void>) {
  await heading('Step 1 of 3: About you');
  const which = page.getByLabel('Which?');
  expect(await which.isVisible()).toBe(false);
  await page.getByLabel('Name').fill('Ada Lovelace');
  await page.getByLabel('Other').check();
  await which.waitFor();
  await which.fill('A question');
  await page.getByLabel('Support').check();
  await which.waitFor({ state: 'hidden' });
  await heading('Step 1 of 2: About you');
  expect(await page.getByRole('button', { name: 'Send' }).isVisible()).toBe(false);
  await page.getByRole('button', { name: 'Next' }).click();
  await heading('Step 2 of 2: Your message');
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('It broke');
  expect(await page.getByRole('button', { name: 'Next' }).isVisible()).toBe(false);
}

describe('a three-step form whose second step an answer skips', () => {
  it('stores the same answers from the hosted page, the embed and the pasted form with and without its script', async () => {
    const form = await logicForm();
    const snippet = await shareSnippet(chromium(), form.email, form.formId);
    expect(snippet).toContain(`data-logic="${form.key}"`);
    const withoutScript = snippet.replace(/<script src=[^>]*data-logic[^>]*><\/script>/, '');
    const served = await siteServing({
      '/embedded': sitePage(
        `<script src="${stack().baseUrl}/embed.js" data-form="${form.key}" async></script>`,
      ),
      '/pasted': sitePage(snippet),
      '/pasted-plain': sitePage(withoutScript),
    });
    const visits: Visit[] = [];
    try {
      // 1. The hosted page.
      const hosted = await visit(chromium(), `${stack().baseUrl}/f/${form.key}`);
      visits.push(hosted);
      const focusedHeading = (page: Page) => async (name: string) => {
        await page.getByRole('heading', { name, exact: true }).waitFor();
      };
      await throughTheSteps(hosted.page, focusedHeading(hosted.page));
      expect(await axeFindings(hosted.page), 'axe on the last step').toEqual([]);
      await hosted.page.screenshot({ path: new URL('logic-hosted-step.png', OUTPUT_DIR).pathname });
      await hosted.page.getByRole('button', { name: 'Send' }).click();
      await hosted.page.locator('#fs-success').waitFor();
      expect((await onlyStored(form.formId, 1)).data).toEqual(STORED);

      // 2. The embed on another website.
      const embedded = await visit(chromium(), `${served.origin}/embedded`);
      visits.push(embedded);
      await throughTheSteps(embedded.page, focusedHeading(embedded.page));
      await embedded.page.getByRole('button', { name: 'Send' }).click();
      await embedded.page.getByText('Your submission has been received.').waitFor();
      expect((await onlyStored(form.formId, 2)).data).toEqual(STORED);

      // 3. The pasted form with its script.
      const pasted = await visit(chromium(), `${served.origin}/pasted`);
      visits.push(pasted);
      await throughTheSteps(pasted.page, focusedHeading(pasted.page));
      await afterFillTime(pasted.page);
      await pasted.page.getByRole('button', { name: 'Send' }).click();
      await pasted.page.getByRole('heading', { name: 'Thank you!' }).waitFor();
      expect((await onlyStored(form.formId, 3)).data).toEqual(STORED);

      // 4. The pasted form without script: one long page, every field in sight.
      const plain = await visit(chromium(), `${served.origin}/pasted-plain`);
      visits.push(plain);
      const { page } = plain;
      await page.getByLabel('Name').fill('Ada Lovelace');
      await page.getByLabel('Other').check();
      await page.getByLabel('Which?').fill('A question');
      await page.getByLabel('Support').check();
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('It broke');
      // The company is required on a branch not taken: the browser does not hold the post for it.
      expect(
        await page.getByRole('textbox', { name: 'Company' }).getAttribute('required'),
      ).toBeNull();
      await afterFillTime(page);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
      // "Which?" and the company were posted; the server's walk dropped them.
      expect((await onlyStored(form.formId, 4)).data).toEqual(STORED);

      for (const each of visits) {
        expect(offMachine(each.requests), 'requests that left the machine').toEqual([]);
        expect(each.errors, 'console errors').toEqual([]);
      }
    } finally {
      for (const each of visits) await each.close();
      await served.close();
    }
  });
});
