import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
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
import { shareSnippet } from '#test/support/dashboard.ts';
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

/** The answers the page posts to the form's endpoint (JSON from the page's script, else the form's own). */
function postedAnswers(page: Page, key: string): Promise<Record<string, unknown>> {
  return page
    .waitForRequest(
      (request) =>
        request.method() === 'POST' && new URL(request.url()).pathname.endsWith(`/s/${key}`),
    )
    .then((request) => {
      const body = request.postData() ?? '';
      if (request.headers()['content-type']?.startsWith('application/json'))
        return JSON.parse(body);
      return Object.fromEntries(new URLSearchParams(body));
    });
}

/** Presses Send and waits for `thanks`: the answers the page posted. */
async function send(page: Page, key: string, thanks: Locator): Promise<Record<string, unknown>> {
  const posted = postedAnswers(page, key);
  await page.getByRole('button', { name: 'Send' }).click();
  await thanks.waitFor();
  return posted;
}

/** What the browser hid was not posted: "Which?" (cleared) and the skipped company. */
function expectNoHiddenAnswer(posted: Record<string, unknown>) {
  expect(Object.keys(posted)).not.toContain('detail');
  expect(Object.keys(posted)).not.toContain('company');
}

/** The element that has the focus, inside an open shadow root too: its tag, name and text. */
function focused(page: Page) {
  return page.evaluate(() => {
    let element = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    return {
      tag: element?.tagName.toLowerCase(),
      name: element?.getAttribute('name') ?? null,
      text: element?.textContent?.trim() ?? '',
    };
  });
}

/** What the steps' live region says (it is filled a moment after it is emptied, so polled). */
const said = (page: Page) => page.locator('p.fs-sr[aria-live=polite]').textContent();

/**
 * The visitor's way through the steps: Other first ("Which?" appears, is
 * typed into), then Support (it goes, and the company step with it), Next
 * past an empty company never asked, the message, Send.
 */
async function throughTheSteps(page: Page) {
  const heading = (name: string) => page.getByRole('heading', { name, exact: true }).waitFor();
  await heading('Step 1 of 3: About you');
  const which = page.getByLabel('Which?');
  expect(await which.isVisible()).toBe(false);
  await page.getByLabel('Name').fill('Ada Lovelace');
  await page.getByLabel('Other').check();
  await which.waitFor();
  await expect.poll(() => said(page)).toBe('Now asked: Which?');
  await which.fill('A question');
  await page.getByLabel('Support').check();
  await which.waitFor({ state: 'hidden' });
  // Its answer is cleared with it: shown again, it would be empty.
  expect(await which.inputValue()).toBe('');
  await expect.poll(() => said(page)).toBe('No longer asked: Which? This form now has 2 steps.');
  await heading('Step 1 of 2: About you');
  expect(await page.getByRole('button', { name: 'Send' }).isVisible()).toBe(false);
  await page.getByRole('button', { name: 'Next' }).click();
  await heading('Step 2 of 2: Your message');
  // The step's heading takes the focus, and the move is said.
  const focus = await focused(page);
  expect(focus.tag).toMatch(/^h[2-6]$/);
  expect(focus.text).toBe('Step 2 of 2: Your message');
  await expect.poll(() => said(page)).toBe('Step 2 of 2: Your message');
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
      await throughTheSteps(hosted.page);
      expect(await axeFindings(hosted.page), 'axe on the last step').toEqual([]);
      await hosted.page.screenshot({ path: new URL('logic-hosted-step.png', OUTPUT_DIR).pathname });
      expectNoHiddenAnswer(await send(hosted.page, form.key, hosted.page.locator('#fs-success')));
      expect((await onlyStored(form.formId, 1)).data).toEqual(STORED);

      // 2. The embed on another website.
      const embedded = await visit(chromium(), `${served.origin}/embedded`);
      visits.push(embedded);
      await throughTheSteps(embedded.page);
      expect(await axeFindings(embedded.page), 'axe on the embed').toEqual([]);
      await embedded.page.screenshot({
        path: new URL('logic-embed-step.png', OUTPUT_DIR).pathname,
      });
      const received = embedded.page.getByText('Your submission has been received.');
      expectNoHiddenAnswer(await send(embedded.page, form.key, received));
      expect((await onlyStored(form.formId, 2)).data).toEqual(STORED);

      // 3. The pasted form with its script.
      const pasted = await visit(chromium(), `${served.origin}/pasted`);
      visits.push(pasted);
      await throughTheSteps(pasted.page);
      // The parts the script adds (the step's heading, Back, the live region) on a plain site.
      expect(await axeFindings(pasted.page), 'axe on the pasted form').toEqual([]);
      await pasted.page.screenshot({ path: new URL('logic-pasted-step.png', OUTPUT_DIR).pathname });
      await afterFillTime(pasted.page);
      const thanks = pasted.page.getByRole('heading', { name: 'Thank you!' });
      expectNoHiddenAnswer(await send(pasted.page, form.key, thanks));
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
      const plainPost = await send(
        page,
        form.key,
        page.getByRole('heading', { name: 'Thank you!' }),
      );
      // "Which?" and the company were posted; the server's walk dropped them.
      expect(plainPost).toMatchObject({ detail: 'A question', company: '' });
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

describe('the steps on the hosted page', () => {
  it('by keyboard alone: Next checks only the step’s asked fields, Back keeps the answers, the heading takes the focus, the last step’s button sends', async () => {
    const form = await logicForm();
    const visit_ = await visit(chromium(), `${stack().baseUrl}/f/${form.key}`);
    try {
      const { page } = visit_;
      const { keyboard } = page;
      const heading = page.locator('.fs-step');
      const error = (id: string) => page.locator(`#fs-e-${id}`).textContent();
      expect(await heading.textContent()).toBe('Step 1 of 3: About you');
      expect(await page.getByRole('button', { name: 'Back' }).isVisible()).toBe(false);

      // Name, the topic's first radio, then Next (Back is hidden on the first step).
      await keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ tag: 'input', name: 'name' });
      await keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ tag: 'input', name: 'topic' });
      await keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ tag: 'button', text: 'Next' });
      await keyboard.press('Enter');
      // Nothing answered: this step's two required fields refused, nothing else (the hidden
      // "Which?", the company on the next step), and the step stays.
      await expect.poll(() => error('name')).not.toBe('');
      expect(await error('topic')).not.toBe('');
      expect(await error('detail')).toBe('');
      expect(await error('company')).toBe('');
      expect(await page.locator('#fs-status').textContent()).toBe('Please correct 2 fields.');
      expect(await heading.textContent()).toBe('Step 1 of 3: About you');
      expect(await focused(page)).toMatchObject({ name: 'name' });

      await keyboard.type('Ada');
      await keyboard.press('Tab');
      await keyboard.press('Space');
      expect(await page.getByLabel('Sales').isChecked()).toBe(true);
      await keyboard.press('Tab');
      await keyboard.press('Enter');
      await expect.poll(() => heading.textContent()).toBe('Step 2 of 3: Your company');
      expect(await focused(page)).toMatchObject({ tag: 'h2', text: 'Step 2 of 3: Your company' });
      await expect.poll(() => said(page)).toBe('Step 2 of 3: Your company');
      expect(await page.locator('#fs-status').textContent()).toBe('');

      await keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ name: 'company' });
      await keyboard.type('Acme');
      await keyboard.press('Tab');
      await keyboard.type('12');
      await keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ tag: 'button', text: 'Back' });
      await keyboard.press('Enter');
      await expect.poll(() => heading.textContent()).toBe('Step 1 of 3: About you');
      expect(await focused(page)).toMatchObject({ tag: 'h2', text: 'Step 1 of 3: About you' });
      expect(await page.getByLabel('Name').inputValue()).toBe('Ada');
      expect(await page.getByLabel('Sales').isChecked()).toBe(true);

      // Enter in a field of a step before the last moves on, as Next does.
      await keyboard.press('Tab');
      await keyboard.press('Enter');
      await expect.poll(() => heading.textContent()).toBe('Step 2 of 3: Your company');
      expect(await page.getByRole('textbox', { name: 'Company' }).inputValue()).toBe('Acme');
      expect(await page.getByRole('spinbutton', { name: 'Seats' }).inputValue()).toBe('12');
      await keyboard.press('Tab');
      await keyboard.press('Enter');
      await expect.poll(() => heading.textContent()).toBe('Step 3 of 3: Your message');
      expect(await page.getByRole('button', { name: 'Next' }).isVisible()).toBe(false);

      await keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ name: 'message' });
      await keyboard.type('Typed, never clicked');
      await keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ name: 'plan' });
      await keyboard.press('Tab');
      await keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ tag: 'button', text: 'Send' });
      await keyboard.press('Enter');
      await page.locator('#fs-success').waitFor();
      expect((await onlyStored(form.formId, 1)).data).toEqual({
        name: 'Ada',
        topic: 'Sales',
        company: 'Acme',
        seats: '12',
        message: 'Typed, never clicked',
        plan: '',
        source: '',
      });
      // The funnel's beacons: the view on load, the first answer, each page's first arrival
      // (page 2 again after Back is not counted again).
      const beacons = () =>
        visit_.requests
          .filter((url) => new URL(url).pathname.endsWith(`/f/${form.key}/views`))
          .map((url) => new URL(url).search);
      await expect.poll(beacons).toEqual(['', '?reached=started', '?reached=2', '?reached=3']);
      expect(visit_.errors).toEqual([]);
    } finally {
      await visit_.close();
    }
  });

  it('a 375 px phone in dark mode: a refused step, 0 serious or critical axe findings, no horizontal scrolling, a screenshot', async () => {
    const form = await logicForm();
    const phone = await visit(chromium(), `${stack().baseUrl}/f/${form.key}`, {
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
      colorScheme: 'dark',
    });
    try {
      const { page } = phone;
      await page.getByLabel('Name').fill('Ada Lovelace');
      await page.getByLabel('Sales').check();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: 'Step 2 of 3: Your company' }).waitFor();
      await page.getByRole('spinbutton', { name: 'Seats' }).fill('900');
      await page.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => page.locator('#fs-e-company').textContent()).not.toBe('');
      expect(await page.locator('#fs-e-seats').textContent()).not.toBe('');
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await axeFindings(page)).toEqual([]);
      await page.screenshot({
        path: new URL('logic-step-375-dark.png', OUTPUT_DIR).pathname,
        fullPage: true,
      });
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});

describe('prefill from the URL', () => {
  /** The Support branch, answered; the plan and the source left to the URL. */
  async function supportBranch(page: Page) {
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Support').check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('It broke');
  }

  it('lands in the stored answers from the hosted page’s query, the embed’s data-prefill-* and the page’s query, a value over the field’s limits is not posted, a hidden value the site set is kept, and a required hidden field left empty does not block sending', async () => {
    const form = await logicForm();
    const tooLong = 'x'.repeat(21);
    const snippet = await shareSnippet(chromium(), form.email, form.formId);
    expect(snippet).toMatch(/name="source" value=""/);
    const served = await siteServing({
      '/embedded': sitePage(
        `<script src="${stack().baseUrl}/embed.js" data-form="${form.key}" data-prefill-source="footer" async></script>`,
      ),
      '/pasted': sitePage(snippet),
      // The site fills its pasted form's hidden field itself: a link's query does not replace it.
      '/pasted-own': sitePage(snippet.replace(/(name="source" value=")"/, '$1site-footer"')),
    });
    const visits: Visit[] = [];
    try {
      // The hosted page: `?field=value`, a choice matched in any case.
      const hosted = await visit(
        chromium(),
        `${stack().baseUrl}/f/${form.key}?plan=pro&source=newsletter&company=Ignored`,
      );
      visits.push(hosted);
      await supportBranch(hosted.page);
      expect(await hosted.page.getByLabel('Plan').inputValue()).toBe('Pro');
      await hosted.page.getByRole('button', { name: 'Send' }).click();
      await hosted.page.locator('#fs-success').waitFor();
      const fromHosted = (await onlyStored(form.formId, 1)) as unknown as {
        data: Record<string, string>;
        meta: { referrer: string };
      };
      expect(fromHosted.data).toMatchObject({ plan: 'Pro', source: 'newsletter' });
      // The page's address is kept without its query: the prefill (company=Ignored too).
      expect(fromHosted.meta.referrer).toBe(`${stack().baseUrl}/f/${form.key}`);

      // The embed: the tag's data-prefill-source wins over the page's query; the plan from it.
      const embedded = await visit(chromium(), `${served.origin}/embedded?plan=Free&source=query`);
      visits.push(embedded);
      await supportBranch(embedded.page);
      await embedded.page.getByRole('button', { name: 'Send' }).click();
      await embedded.page.getByText('Your submission has been received.').waitFor();
      expect((await onlyStored(form.formId, 2)).data).toMatchObject({
        plan: 'Free',
        source: 'footer',
      });

      // The pasted form's script: the page's query; a source over its 20 characters is not filled.
      const pasted = await visit(chromium(), `${served.origin}/pasted?plan=Pro&source=${tooLong}`);
      visits.push(pasted);
      // Next checks the step with the browser's own checks: an empty name keeps it there.
      await pasted.page.getByRole('button', { name: 'Next' }).click();
      // reportValidity puts the focus on the refused field.
      expect(await focused(pasted.page)).toMatchObject({ name: 'name' });
      expect(await pasted.page.locator('.fs-step').textContent()).toBe('Step 1 of 3: About you');
      await supportBranch(pasted.page);
      await afterFillTime(pasted.page);
      const thanks = pasted.page.getByRole('heading', { name: 'Thank you!' });
      expect(await send(pasted.page, form.key, thanks)).toMatchObject({ plan: 'Pro', source: '' });
      expect((await onlyStored(form.formId, 3)).data).toEqual({
        name: 'Ada Lovelace',
        topic: 'Support',
        message: 'It broke',
        plan: 'Pro',
        source: '',
      });

      const own = await visit(chromium(), `${served.origin}/pasted-own?plan=Pro&source=query`);
      visits.push(own);
      await supportBranch(own.page);
      await afterFillTime(own.page);
      const ownThanks = own.page.getByRole('heading', { name: 'Thank you!' });
      expect(await send(own.page, form.key, ownThanks)).toMatchObject({ source: 'site-footer' });
      expect((await onlyStored(form.formId, 4)).data).toMatchObject({ source: 'site-footer' });

      // A required hidden field the address leaves empty never blocks the visitor (who could
      // not fill it): the page sends, and the server marks the submission.
      const fields = LOGIC.fields.map((field) =>
        field.id === 'source' ? { ...field, required: true } : field,
      );
      const patched = await api('PATCH', `/v1/forms/${form.formId}`, {
        key: form.apiKey,
        body: { fields },
      });
      expect(patched.status, patched.text).toBe(200);
      const bare = await visit(chromium(), `${stack().baseUrl}/f/${form.key}`);
      visits.push(bare);
      await supportBranch(bare.page);
      await bare.page.getByRole('button', { name: 'Send' }).click();
      await bare.page.locator('#fs-success').waitFor();
      const marked = (await onlyStored(form.formId, 5)).data;
      expect(JSON.parse(marked._invalid!)).toEqual([{ fieldId: 'source', reason: 'required' }]);

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
