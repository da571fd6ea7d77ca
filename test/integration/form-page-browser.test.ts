import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormType } from '#domain/form-model.ts';
import { api, stack } from '#test/support/api.ts';
import {
  axeFindings,
  launchChromium,
  offMachine,
  PAGE_WAIT_MS,
  siteServing,
  visit,
} from '#test/support/browser.ts';
import { newForm, storedItems, type TestForm } from '#test/support/forms.ts';
import { TEST_MIN_FILL_TIME_MS } from './stack-settings.ts';

/**
 * The hosted page (`/f/{key}`) and the embed (`/embed.js`) in Chromium:
 * with and without JavaScript, errors in place, closed forms, the embed on
 * another origin, axe-core, screenshots. No request may leave this machine:
 * every request is recorded and any host but 127.0.0.1 and localhost fails
 * the test.
 */

/** Git-ignored (`.local/`): screenshots for a human to look at, not committed. */
const OUTPUT_DIR = new URL('../../.local/test-output/', import.meta.url);

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(OUTPUT_DIR, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

/** A fresh context recording every request, console error and uncaught exception. */
const open = (url: string, options: BrowserContextOptions = {}) => visit(browser, url, options);

const pageUrl = (key: string) => `${stack().baseUrl}/f/${key}`;
const submitUrl = (key: string) => `${stack().baseUrl}/s/${key}`;

/** What a visitor types into each starter form, and what the form then stores. */
const ANSWERS: Record<FormType, { fill: (page: Page) => Promise<void>; stored: object }> = {
  contact: {
    fill: async (page) => {
      await page.getByLabel('Name').fill('Ada Lovelace');
      await page.getByLabel('Email').fill('ada@example.com');
      await page.getByLabel('Message').fill('Hello from the hosted page');
    },
    stored: {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      message: 'Hello from the hosted page',
    },
  },
  waitlist: {
    fill: async (page) => {
      await page.getByLabel('Email').fill('grace@example.com');
    },
    stored: { email: 'grace@example.com', name: '' },
  },
  feedback: {
    fill: async (page) => {
      await page.getByLabel('4 of 5').check();
      await page.getByLabel('Message').fill('Nice');
    },
    stored: { rating: '4', message: 'Nice' },
  },
  rsvp: {
    fill: async (page) => {
      await page.getByLabel('Name').fill('Alan');
      await page.getByLabel('Email').fill('alan@example.com');
      await page.getByLabel('Maybe').check();
      await page.getByLabel('Guests').fill('2');
    },
    stored: { name: 'Alan', email: 'alan@example.com', attending: 'Maybe', guests: '2' },
  },
  custom: {
    fill: async (page) => {
      await page.getByLabel('Name').fill('Edsger');
      await page.getByLabel('Email').fill('edsger@example.com');
      await page.getByLabel('Message').fill('Any fields');
    },
    stored: { name: 'Edsger', email: 'edsger@example.com', message: 'Any fields' },
  },
};

async function onlyStored(formId: string): Promise<Record<string, string>> {
  const items = await storedItems(formId);
  expect(items, 'stored submissions').toHaveLength(1);
  return (items[0] as { data: Record<string, string> }).data;
}

const FORM_TYPES: FormType[] = ['contact', 'waitlist', 'feedback', 'rsvp', 'custom'];

describe('the hosted page with JavaScript', () => {
  for (const type of FORM_TYPES) {
    it(`a ${type} form posts JSON and shows its success message in place`, async () => {
      const form = await newForm('free', {}, { name: `The ${type} form`, type });
      const visit = await open(pageUrl(form.key));
      try {
        const { page } = visit;
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
          `The ${type} form`,
        );
        await ANSWERS[type].fill(page);
        const posted = page.waitForRequest((r) => r.url() === submitUrl(form.key));
        await page.getByRole('button', { name: 'Send' }).click();
        const request = await posted;
        expect(request.headers()['content-type']).toBe('application/json');
        const success = page.locator('#fs-success');
        await success.waitFor({ state: 'visible' });
        expect(await success.textContent()).toBe('Thank you!Your submission has been received.');
        expect(await page.locator('form').isHidden()).toBe(true);
        // Still the hosted page: no navigation.
        expect(page.url()).toBe(pageUrl(form.key));
        const data = await onlyStored(form.id);
        // The client's checks are the server's: what passed here is stored without _invalid.
        expect(data).toEqual(ANSWERS[type].stored);
        expect(offMachine(visit.requests), 'requests that left the machine').toEqual([]);
        expect(visit.errors, 'console errors').toEqual([]);
      } finally {
        await visit.close();
      }
    });
  }
});

describe('the hosted page of a form that asks people to confirm their email', () => {
  it('says "Check your inbox to confirm your answer." in place of its thank-you message', async () => {
    const form = await newForm(
      'free',
      { confirmEmail: { field: 'email' } },
      { name: 'The confirmed waitlist', type: 'waitlist' },
    );
    const visit = await open(pageUrl(form.key));
    try {
      const { page } = visit;
      await ANSWERS.waitlist.fill(page);
      await page.getByRole('button', { name: 'Send' }).click();
      const success = page.locator('#fs-success');
      await success.waitFor({ state: 'visible' });
      expect(await success.textContent()).toBe(
        'Check your inboxCheck your inbox to confirm your answer.',
      );
      // Pending: in no folder but its own (docs/submit.md#confirm-by-email).
      const [item] = await storedItems(form.id);
      expect(item?.confirmation).toMatchObject({ status: 'pending' });
      expect(visit.errors, 'console errors').toEqual([]);
    } finally {
      await visit.close();
    }
  });
});

describe('the hosted page without JavaScript', () => {
  for (const type of FORM_TYPES) {
    it(`a ${type} form posts urlencoded and lands on the thank-you page`, async () => {
      const form = await newForm('free', {}, { name: `The ${type} form`, type });
      const visit = await open(pageUrl(form.key), { javaScriptEnabled: false });
      try {
        const { page } = visit;
        await ANSWERS[type].fill(page);
        // Without the script nothing waits out the fill-time check (the test stack's minimum,
        // not the deployed 2 s), and a post it drops looks like a success: wait it out here.
        await page.waitForTimeout(TEST_MIN_FILL_TIME_MS + 100);
        const posted = page.waitForRequest((r) => r.url() === submitUrl(form.key));
        await Promise.all([
          page.waitForURL(submitUrl(form.key)),
          page.getByRole('button', { name: 'Send' }).click(),
        ]);
        expect((await posted).headers()['content-type']).toBe('application/x-www-form-urlencoded');
        expect(await page.locator('h1').textContent()).toBe('Thank you!');
        expect(await page.locator('a').getAttribute('href')).toBe(pageUrl(form.key));
        expect(await onlyStored(form.id)).toEqual(ANSWERS[type].stored);
        expect(offMachine(visit.requests), 'requests that left the machine').toEqual([]);
      } finally {
        await visit.close();
      }
    });
  }

  it('the browser’s own checks stop an empty required field before posting', async () => {
    const form = await newForm('free', {}, { name: 'Native', type: 'contact' });
    const visit = await open(pageUrl(form.key), { javaScriptEnabled: false });
    try {
      await visit.page.getByRole('button', { name: 'Send' }).click();
      // Proves nothing is posted: a short wait for a request that must not come.
      await visit.page.waitForTimeout(300);
      expect(visit.page.url()).toBe(pageUrl(form.key));
      expect(visit.requests.filter((url) => url.includes('/s/'))).toEqual([]);
    } finally {
      await visit.close();
    }
  });
});

describe('errors in place', () => {
  it('required and invalid answers are shown beside their fields, announced, and nothing is posted', async () => {
    const form = await newForm(
      'free',
      {
        fields: [
          { id: 'name', type: 'text', label: 'Name', required: true, minLength: 2 },
          { id: 'email', type: 'email', label: 'Email', required: true, helpText: 'We reply here' },
          { id: 'guests', type: 'number', label: 'Guests', min: 0, max: 20 },
          { id: 'site', type: 'url', label: 'Website' },
          { id: 'when', type: 'radio', label: 'When', required: true, options: ['Day', 'Night'] },
        ],
      },
      { name: 'Checks', type: 'custom' },
    );
    const visit = await open(pageUrl(form.key));
    try {
      const { page } = visit;
      const submit = page.getByRole('button', { name: 'Send' });
      await submit.click();
      const status = page.locator('#fs-status');
      await expect.poll(() => status.textContent()).toBe('Please correct 3 fields.');
      expect(await status.getAttribute('role')).toBe('status');
      const name = page.getByLabel('Name');
      expect(await name.getAttribute('aria-invalid')).toBe('true');
      expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await page.locator('#fs-e-name').textContent()).toBe('Please fill in this field.');
      // The error is part of the field's description, after its help text.
      const email = page.getByLabel('Email');
      expect(await email.getAttribute('aria-describedby')).toBe('fs-h-email fs-e-email');
      expect(await page.locator('#fs-e-when').textContent()).toBe('Please choose an answer.');

      await name.fill('A');
      await email.fill('not-an-email');
      await page.getByLabel('Guests').fill('21');
      await page.getByLabel('Website').fill('example.com');
      await page.getByLabel('Night').check();
      await submit.click();
      await expect.poll(() => status.textContent()).toBe('Please correct 4 fields.');
      expect(await page.locator('#fs-e-name').textContent()).toBe(
        'Please use at least 2 characters.',
      );
      expect(await page.locator('#fs-e-email').textContent()).toBe(
        'Please enter an email address, like name@example.com.',
      );
      expect(await page.locator('#fs-e-guests').textContent()).toBe('Please enter 20 or less.');
      expect(await page.locator('#fs-e-site').textContent()).toBe(
        'Please enter a web address starting with http:// or https://.',
      );
      expect(await page.locator('#fs-e-when').textContent()).toBe('');
      await page.screenshot({ path: new URL('form-page-errors.png', OUTPUT_DIR).pathname });
      expect(await axeFindings(page), 'axe serious/critical with errors shown').toEqual([]);

      // A corrected answer clears its message at once.
      await page.getByLabel('Guests').fill('3');
      await expect.poll(() => page.locator('#fs-e-guests').textContent()).toBe('');
      expect(await page.getByLabel('Guests').getAttribute('aria-invalid')).toBeNull();

      expect(visit.requests.filter((url) => url.includes('/s/'))).toEqual([]);
      expect(await storedItems(form.id)).toHaveLength(0);

      await name.fill('Ada');
      await email.fill('ada@example.com');
      await page.getByLabel('Website').fill('https://example.com');
      await submit.click();
      await page.locator('#fs-success').waitFor({ state: 'visible' });
      expect(await onlyStored(form.id)).toEqual({
        name: 'Ada',
        email: 'ada@example.com',
        guests: '3',
        site: 'https://example.com',
        when: 'Night',
      });
      expect(visit.errors, 'console errors').toEqual([]);
    } finally {
      await visit.close();
    }
  });

  it('a refusal of the whole post is shown above the form, focused and announced (a form closed after the page was drawn)', async () => {
    const form = await newForm('free', {}, { name: 'Closing', type: 'waitlist' });
    const visit = await open(pageUrl(form.key));
    try {
      const { page } = visit;
      await page.getByLabel('Email').fill('late@example.com');
      await api('PATCH', `/v1/forms/${form.id}`, { key: form.apiKey, body: { status: 'paused' } });
      await page.getByRole('button', { name: 'Send' }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('This form is closed and no longer accepts submissions.');
      expect(
        await page.getByRole('alert').evaluate((element) => element === document.activeElement),
      ).toBe(true);
      expect(await page.locator('#fs-status').textContent()).toBe('');
      expect(await page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
      // Sent again, the refusal goes until it is answered anew.
      await api('PATCH', `/v1/forms/${form.id}`, { key: form.apiKey, body: { status: 'active' } });
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText('You are on the list').or(page.locator('.fs-success')).first().waitFor();
      expect(await page.getByRole('alert').count(), 'the refusal is gone').toBe(0);
    } finally {
      await visit.close();
    }
  });
});

describe('a closed form', () => {
  it('shows its closed message instead of the fields', async () => {
    const form = await newForm(
      'pro',
      { status: 'paused', closedMessage: 'Registration has ended.' },
      { name: 'Closed', type: 'rsvp' },
    );
    const visit = await open(pageUrl(form.key));
    try {
      expect(await visit.page.getByRole('status').textContent()).toBe('Registration has ended.');
      expect(await visit.page.locator('form').count()).toBe(0);
      expect(await axeFindings(visit.page)).toEqual([]);
    } finally {
      await visit.close();
    }
  });
});

describe('looks and accessibility', () => {
  async function designed(theme: 'light' | 'dark', accent: string): Promise<TestForm> {
    return newForm(
      'free',
      {
        design: {
          theme,
          accent,
          title: 'Tell us about your event',
          description: 'We answer within a day.\nEvery field with a star is required.',
          submitLabel: 'Send request',
        },
        fields: [
          {
            id: 'name',
            type: 'text',
            label: 'Full name',
            required: true,
            placeholder: 'Ada Lovelace',
          },
          {
            id: 'email',
            type: 'email',
            label: 'Email',
            required: true,
            helpText: 'We reply to this address.',
          },
          {
            id: 'kind',
            type: 'select',
            label: 'Kind of event',
            options: ['Wedding', 'Conference', 'Other'],
          },
          { id: 'date', type: 'date', label: 'Date' },
          { id: 'size', type: 'radio', label: 'Size', options: ['Small', 'Medium', 'Large'] },
          { id: 'extras', type: 'checkbox', label: 'Add catering' },
          { id: 'score', type: 'rating', label: 'How did you like our last event?', max: 5 },
          { id: 'phone', type: 'tel', label: 'Phone' },
          { id: 'details', type: 'textarea', label: 'Details', maxLength: 2000 },
          { id: 'terms', type: 'checkbox', label: 'I agree to be contacted', required: true },
        ],
      },
      { name: 'Designed', type: 'custom' },
    );
  }

  for (const theme of ['light', 'dark'] as const) {
    it(`the ${theme} page: 0 serious or critical axe findings, a screenshot`, async () => {
      const form = await designed(theme, theme === 'light' ? '#7c3aed' : '#f59e0b');
      const visit = await open(pageUrl(form.key), { colorScheme: theme });
      try {
        expect(await axeFindings(visit.page)).toEqual([]);
        await visit.page.screenshot({
          path: new URL(`form-page-${theme}.png`, OUTPUT_DIR).pathname,
          fullPage: true,
        });
        expect(offMachine(visit.requests)).toEqual([]);
        expect(visit.errors).toEqual([]);
      } finally {
        await visit.close();
      }
    });
  }

  it('a 375 px wide phone: no horizontal scrolling, a screenshot', async () => {
    const form = await designed('light', '#2563eb');
    const visit = await open(pageUrl(form.key), {
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      const { page } = visit;
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: new URL('form-page-375.png', OUTPUT_DIR).pathname,
        fullPage: true,
      });
      expect(await axeFindings(page)).toEqual([]);
    } finally {
      await visit.close();
    }
  });

  it('the keyboard reaches every field and sends the form', async () => {
    const form = await newForm('free', {}, { name: 'Keys', type: 'contact' });
    const visit = await open(pageUrl(form.key));
    try {
      const { page } = visit;
      await page.keyboard.press('Tab');
      await page.keyboard.type('Ada');
      await page.keyboard.press('Tab');
      await page.keyboard.type('ada@example.com');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Typed, never clicked');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send');
      await page.keyboard.press('Enter');
      await page.locator('#fs-success').waitFor({ state: 'visible' });
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('fs-success');
      expect(await onlyStored(form.id)).toEqual({
        name: 'Ada',
        email: 'ada@example.com',
        message: 'Typed, never clicked',
      });
    } finally {
      await visit.close();
    }
  });
});

describe('the embed on another website', () => {
  const embedPage = (key: string, extra = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A customer's site</title><link rel="icon" href="data:,">
<style>* { color: #b00000 !important; font-family: serif !important; } input { border: 5px dotted lime !important; }</style>
</head><body><main><h1>Contact us</h1><p>Our form:</p>
<script src="${stack().baseUrl}/embed.js" data-form="${key}" async></script>${extra}
</main></body></html>`;

  it('renders in a shadow root, isolated from the site’s styles, and posts when the site is allowed', async () => {
    // The site's handler reads its pages per request: the page is added once the key is known.
    const pages: Record<string, string> = {};
    const served = await siteServing(pages);
    const form = await newForm(
      'free',
      { allowedOrigins: [served.origin] },
      { name: 'Embedded contact', type: 'contact' },
    );
    pages['/contact'] = embedPage(form.key);
    const visit = await open(`${served.origin}/contact`);
    try {
      const { page } = visit;
      const heading = page.getByRole('heading', { name: 'Embedded contact' });
      await heading.waitFor();
      expect(
        await page.evaluate(() => !!document.querySelector('.form-service-embed')?.shadowRoot),
      ).toBe(true);
      // The site's `* { color: #b00000 }` does not reach into the form, nor its input borders.
      expect(await heading.evaluate((el) => getComputedStyle(el).color)).not.toBe('rgb(176, 0, 0)');
      expect(
        await page.getByLabel('Email').evaluate((el) => getComputedStyle(el).borderTopStyle),
      ).toBe('solid');
      // And the form's styles do not leak out.
      expect(await page.locator('h1').evaluate((el) => getComputedStyle(el).color)).toBe(
        'rgb(176, 0, 0)',
      );
      expect(await axeFindings(page)).toEqual([]);
      await page.screenshot({
        path: new URL('form-embed.png', OUTPUT_DIR).pathname,
        fullPage: true,
      });

      await page.getByRole('button', { name: 'Send' }).click();
      await expect.poll(() => page.getByText('Please correct 3 fields.').count()).toBe(1);
      await ANSWERS.contact.fill(page);
      const posted = page.waitForRequest(
        (r) => r.url() === submitUrl(form.key) && r.method() === 'POST',
      );
      await page.getByRole('button', { name: 'Send' }).click();
      expect((await (await posted).allHeaders()).origin).toBe(served.origin);
      await page.getByText('Your submission has been received.').waitFor();
      expect(await onlyStored(form.id)).toEqual(ANSWERS.contact.stored);
      expect(visit.requests).toContain(`${stack().baseUrl}/f/${form.key}/form.json`);
      expect(offMachine(visit.requests)).toEqual([]);
      expect(visit.errors).toEqual([]);
    } finally {
      await visit.close();
      await served.close();
    }
  });

  it('on a website not in allowedOrigins it shows the refusal, and a post from there is refused', async () => {
    const form = await newForm(
      'free',
      { allowedOrigins: ['https://shop.example'] },
      { name: 'Elsewhere', type: 'contact' },
    );
    const served = await siteServing({ '/contact': embedPage(form.key) });
    const visit = await open(`${served.origin}/contact`);
    try {
      const { page } = visit;
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toBe(
        'This form could not be loaded: This website may not show this form',
      );
      expect(
        await page
          .locator('.form-service-embed')
          .evaluate((el) => el.shadowRoot?.querySelector('form')),
      ).toBeNull();
      const status = await page.evaluate(async (url) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'x@example.com', message: 'hi' }),
        });
        return response.status;
      }, submitUrl(form.key));
      expect(status).toBe(403);
      expect(await storedItems(form.id)).toHaveLength(0);
      expect(offMachine(visit.requests)).toEqual([]);
    } finally {
      await visit.close();
      await served.close();
    }
  });
});

/**
 * Cloudflare's widget script, answered inside the browser (`route.fulfill`:
 * the request never leaves the machine) by a stand-in that renders like
 * Turnstile does: implicitly into `.cf-turnstile` (a hidden
 * `cf-turnstile-response` in its form) or explicitly through `render()`'s
 * callback. The local stack's siteverify passes Cloudflare's test secret.
 */
const TURNSTILE_STAND_IN = `(() => {
  const token = 'local-turnstile-token';
  window.turnstile = { render: (box, options) => { box.dataset.rendered = 'explicit'; options.callback(token); } };
  if (!document.currentScript.src.includes('render=explicit')) {
    for (const box of document.querySelectorAll('.cf-turnstile')) {
      const input = document.createElement('input');
      input.type = 'hidden'; input.name = 'cf-turnstile-response'; input.value = token;
      box.append(input); box.dataset.rendered = 'implicit';
    }
  }
})();`;
const PASSING_SECRET = '1x0000000000000000000000000000000AA';

async function withTurnstileStandIn(page: Page): Promise<string[]> {
  const answered: string[] = [];
  await page.context().route('https://challenges.cloudflare.com/**', (route) => {
    answered.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: TURNSTILE_STAND_IN });
  });
  return answered;
}

describe('a form with a captcha', () => {
  const captcha = {
    captchaSiteKey: '1x00000000000000000000AA',
    captchaSecretKey: PASSING_SECRET,
    captchaEnabled: true,
  };

  it('the hosted page loads Turnstile, sends its token and the post is verified and stored', async () => {
    const form = await newForm('free', captcha, { name: 'Guarded', type: 'waitlist' });
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(PAGE_WAIT_MS);
    const answered = await withTurnstileStandIn(page);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    try {
      await page.goto(pageUrl(form.key));
      await page.locator('.cf-turnstile[data-rendered=implicit]').waitFor({ state: 'attached' });
      await page.getByLabel('Email').fill('guarded@example.com');
      const posted = page.waitForRequest((r) => r.url() === submitUrl(form.key));
      await page.getByRole('button', { name: 'Send' }).click();
      expect(JSON.parse((await posted).postData()!)).toMatchObject({
        'cf-turnstile-response': 'local-turnstile-token',
      });
      await page.locator('#fs-success').waitFor({ state: 'visible' });
      expect(await onlyStored(form.id)).toEqual({ email: 'guarded@example.com', name: '' });
      expect(answered).toEqual(['https://challenges.cloudflare.com/turnstile/v0/api.js']);
      // Only the stand-in's URL was off this machine, and it was answered in the browser.
      expect(offMachine(requests)).toEqual(answered);
    } finally {
      await context.close();
    }
  });

  it('the embed renders Turnstile explicitly in its shadow root and posts the token', async () => {
    const pages: Record<string, string> = {};
    const served = await siteServing(pages);
    const form = await newForm(
      'free',
      { ...captcha, allowedOrigins: [served.origin] },
      { name: 'Guarded embed', type: 'waitlist' },
    );
    pages['/join'] =
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Join</title><link rel="icon" href="data:,"></head>
<body><main><h1>Join</h1><script src="${stack().baseUrl}/embed.js" data-form="${form.key}" async></script></main></body></html>`;
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(PAGE_WAIT_MS);
    const answered = await withTurnstileStandIn(page);
    try {
      await page.goto(`${served.origin}/join`);
      await page.locator('.cf-turnstile[data-rendered=explicit]').waitFor({ state: 'attached' });
      await page.getByLabel('Email').fill('embedded@example.com');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText('Your submission has been received.').waitFor();
      expect(await onlyStored(form.id)).toEqual({ email: 'embedded@example.com', name: '' });
      expect(answered).toEqual([
        'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
      ]);
    } finally {
      await context.close();
      await served.close();
    }
  });
});

describe('the view beacon', () => {
  /** A desktop Chrome's User-Agent: headless Chromium names itself HeadlessChrome, a bot's mark. */
  const PERSON = {
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  };
  const viewsLately = async (form: TestForm) => {
    // Yesterday too: a load just before midnight is read just after it.
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    const summary = await api('GET', `/v1/forms/${form.id}/summary?from=${day(1)}&to=${day(0)}`, {
      key: form.apiKey,
    });
    expect(summary.status, summary.text).toBe(200);
    return (summary.body.totals as { views: number }).views;
  };

  it('counts one view a load of the hosted page and of the embed, sets no cookie, asks nothing of another host, and does not count a bot', async () => {
    const pages: Record<string, string> = {};
    const served = await siteServing(pages);
    const form = await newForm(
      'free',
      { allowedOrigins: [served.origin] },
      { name: 'Counted', type: 'contact' },
    );
    pages['/join'] = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Join</title>
<link rel="icon" href="data:,"></head><body><main><h1>Join</h1>
<script src="${stack().baseUrl}/embed.js" data-form="${form.key}" async></script></main></body></html>`;
    const beacon = `${stack().baseUrl}/f/${form.key}/views`;
    const load = async (url: string, options: BrowserContextOptions) => {
      const visit = await open(url, options);
      try {
        await visit.page.getByRole('heading', { name: 'Counted' }).waitFor();
        // The page sends it as it loads: every request of the visit is recorded from the start.
        await expect.poll(() => visit.requests.filter((r) => r === beacon).length).toBe(1);
        expect(visit.failed).toEqual([]);
        expect(await visit.page.context().cookies()).toEqual([]);
        expect(offMachine(visit.requests)).toEqual([]);
        expect(visit.errors).toEqual([]);
      } finally {
        await visit.close();
      }
    };
    try {
      await load(pageUrl(form.key), PERSON);
      await expect.poll(() => viewsLately(form)).toBe(1);
      await load(`${served.origin}/join`, PERSON);
      await expect.poll(() => viewsLately(form)).toBe(2);
      // Headless Chromium's own User-Agent is a bot's: the beacon goes, nothing is counted.
      await load(pageUrl(form.key), {});
      await load(`${served.origin}/join`, {});
      expect(await viewsLately(form)).toBe(2);
    } finally {
      await served.close();
    }
  });
});
