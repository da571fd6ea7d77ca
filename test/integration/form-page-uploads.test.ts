import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, stack } from '#test/support/api.ts';
import {
  axeFindings,
  launchChromium,
  offMachine,
  siteServing,
  visit,
} from '#test/support/browser.ts';
import { newForm, storedItems, type TestForm } from '#test/support/forms.ts';
import { submit } from '#test/support/submit.ts';

/**
 * Direct uploads from the hosted page and the embed in Chromium: the script
 * asks `/s/{key}/uploads` for policies, posts each file to the local S3
 * with a progress bar, then posts the form as JSON with `_uploads`. Files
 * are made in memory and handed to the file input; no request may leave
 * this machine.
 */

const MB = 1024 * 1024;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const pageUrl = (key: string) => `${stack().baseUrl}/f/${key}`;
const submitUrl = (key: string) => `${stack().baseUrl}/s/${key}`;
const bucketUrl = () => `${stack().endpoints.s3}/${stack().uploadsBucket}`;

const pdf = (name: string, size: number) => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(size - 9, 7)]),
});

/**
 * A PDF of `size` bytes chosen in a file input, made in the page: handing a
 * large Buffer to setInputFiles takes seconds over the debugging protocol
 * (and above 50 MB Playwright wants a file on disk).
 */
async function chooseInPage(input: Locator, name: string, size: number) {
  await input.evaluate(
    (element, file) => {
      const bytes = new Uint8Array(file.size).fill(7);
      bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
      const chosen = new DataTransfer();
      chosen.items.add(new File([bytes], file.name, { type: 'application/pdf' }));
      (element as HTMLInputElement).files = chosen.files;
      element.dispatchEvent(new Event('change', { bubbles: true }));
    },
    { name, size },
  );
}

/** A Pro form taking files up to 50 MB: a name and a required report. */
function reportsForm(settings: Record<string, unknown> = {}): Promise<TestForm> {
  return newForm(
    'pro',
    {
      allowUploads: true,
      uploadLimitMb: 50,
      fields: [
        { id: 'name', type: 'text', label: 'Name', required: true },
        { id: 'report', type: 'file', label: 'Report', required: true },
      ],
      ...settings,
    },
    { name: 'Reports', type: 'custom' },
  );
}

/** Every value the page's progress bars take and every text of its live region, as they change. */
async function watchUploads(
  page: Page,
): Promise<() => Promise<{ progress: number[]; status: string[] }>> {
  await page.evaluate(() => {
    const seen = { progress: [] as number[], status: [] as string[] };
    (globalThis as unknown as { seen: typeof seen }).seen = seen;
    new MutationObserver((records) => {
      for (const { target } of records) {
        if (target instanceof HTMLProgressElement) seen.progress.push(target.value);
        else if (target instanceof HTMLElement && target.id === 'fs-status') {
          seen.status.push(target.textContent ?? '');
        }
      }
    }).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['value'],
    });
  });
  return () =>
    page.evaluate(
      () => (globalThis as unknown as { seen: { progress: number[]; status: string[] } }).seen,
    );
}

interface FileMeta {
  name: string;
  mime: string;
  size: number;
}

/** The form's one submission through the management API: its answers and `meta.files`. */
async function onlySubmission(form: TestForm) {
  const list = await api<{ items: { id: string }[] }>('GET', `/v1/forms/${form.id}/submissions`, {
    key: form.apiKey,
  });
  expect(list.status, list.text).toBe(200);
  expect(list.body.items, 'submissions of the form').toHaveLength(1);
  const one = await api<{ data: Record<string, unknown>; meta: { files?: FileMeta[] } }>(
    'GET',
    `/v1/forms/${form.id}/submissions/${list.body.items[0]!.id}`,
    { key: form.apiKey },
  );
  expect(one.status, one.text).toBe(200);
  return one.body;
}

describe('the hosted page uploads files straight to storage', () => {
  it('a 30 MB file: a moving progress bar, then a JSON post naming it; meta.files has its size', async () => {
    const form = await reportsForm();
    const visited = await visit(browser, pageUrl(form.key));
    const { page } = visited;
    try {
      const seen = await watchUploads(page);
      // Hold the form's post until axe has looked at the page with the progress bar shown.
      let held!: () => void;
      const holding = new Promise<void>((resolve) => {
        held = resolve;
      });
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let post: { contentType: string | undefined; body: Record<string, unknown> } | undefined;
      await page.route(submitUrl(form.key), async (route) => {
        post = {
          contentType: route.request().headers()['content-type'],
          body: route.request().postDataJSON() as Record<string, unknown>,
        };
        held();
        await released;
        await route.continue();
      });

      // Uploads to this machine take a blink: at 20 MB/s the bar has time to move.
      const devtools = await page.context().newCDPSession(page);
      await devtools.send('Network.enable');
      await devtools.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: 20 * MB,
      });
      await page.getByLabel('Name').fill('Ada');
      await chooseInPage(page.locator('#fs-f-report'), 'big report.pdf', 30 * MB);
      await page.getByRole('button', { name: 'Send' }).click();
      await holding;

      const bar = page.getByRole('progressbar', { name: 'big report.pdf: uploaded' });
      expect(await bar.isVisible(), 'the finished progress bar is shown').toBe(true);
      expect(await bar.evaluate((element) => (element as HTMLProgressElement).value)).toBe(100);
      expect(await axeFindings(page), 'axe with the progress bar shown').toEqual([]);
      release();

      await page.locator('#fs-success').waitFor({ state: 'visible', timeout: 20_000 });
      const { progress, status } = await seen();
      const below = [...new Set(progress.filter((value) => value > 0 && value < 100))];
      // Seen moving: distinct values on the way, in order, then the end.
      expect(progress.at(-1), `progress values ${progress}`).toBe(100);
      expect(below.length, `progress values ${progress}`).toBeGreaterThanOrEqual(2);
      expect(below, 'the bar only moves forward').toEqual([...below].sort((a, b) => a - b));
      expect(status).toContain('Uploading 1 file…');
      expect(status, 'the completion is announced').toContain('1 file uploaded. Sending…');

      // The form went as JSON naming the upload; the file went to the bucket, from this machine.
      expect(post?.contentType).toBe('application/json');
      expect(post?.body).toEqual({
        name: 'Ada',
        _gotcha: '',
        _t: expect.any(String),
        _uploads: [expect.stringMatching(/^[0-9a-f-]{36}$/)],
        // The hosted page counted its view (docs/analytics.md): the post says so.
        _views: 'counted',
      });
      expect(visited.requests).toContain(`${submitUrl(form.key)}/uploads`);
      expect(visited.requests).toContain(bucketUrl());
      expect(offMachine(visited.requests)).toEqual([]);
      expect(visited.errors).toEqual([]);

      const submission = await onlySubmission(form);
      expect(submission.data).toEqual({ name: 'Ada' });
      expect(submission.meta.files).toEqual([
        { field: 'report', name: 'big report.pdf', mime: 'application/pdf', size: 30 * MB },
      ]);
    } finally {
      await visited.close();
    }
  }, 90_000);

  it('a file over the form’s limit is refused in place with the uploads route’s message, and nothing is sent', async () => {
    const form = await reportsForm();
    const size = 50 * MB + 1;
    const expected = await api('POST', `/s/${form.key}/uploads`, {
      key: null,
      body: { files: [{ name: 'huge.pdf', size, type: 'application/pdf', field: 'report' }] },
    });
    expect(expected.status).toBe(413);
    const message = expected.body.message as string;
    const visited = await visit(browser, pageUrl(form.key));
    const { page } = visited;
    try {
      await page.getByLabel('Name').fill('Ada');
      const input = page.locator('#fs-f-report');
      await chooseInPage(input, 'huge.pdf', size);
      await page.getByRole('button', { name: 'Send' }).click();
      await expect.poll(() => page.locator('#fs-e-report').textContent()).toBe(message);
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      expect(await input.evaluate((element) => element === document.activeElement)).toBe(true);
      expect(await page.locator('#fs-status').textContent()).toBe(message);
      expect(await page.getByRole('progressbar').count(), 'no upload began').toBe(0);
      expect(await page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
      expect(visited.requests).not.toContain(bucketUrl());
      expect(visited.requests).not.toContain(submitUrl(form.key));
      expect(await storedItems(form.id)).toEqual([]);
      expect(await axeFindings(page)).toEqual([]);
    } finally {
      await visited.close();
    }
  }, 90_000);
});

describe('a refusal of the whole post', () => {
  it('too many posts from this visitor: the message is above the form and focused, not under the file field', async () => {
    const form = await reportsForm();
    const visited = await visit(browser, pageUrl(form.key));
    const { page } = visited;
    try {
      await page.getByLabel('Name').fill('Ada');
      await page.locator('#fs-f-report').setInputFiles(pdf('cv.pdf', 4096));
      // The burst and the click in one minute window (windows start on the minute).
      await expect.poll(() => Date.now() % 60_000, { timeout: 20_000 }).toBeLessThan(40_000);
      // This visitor (the browser posts from 127.0.0.1 too) reaches the form's limit a minute.
      let status = 0;
      for (let i = 0; i < 40 && status !== 429; i++) {
        status = (await submit(form.key, { json: { name: `Burst ${i}` } })).status;
      }
      expect(status, 'the burst met the limit').toBe(429);
      await page.getByRole('button', { name: 'Send' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'Too many submissions' });
      await alert.waitFor();
      expect(await alert.textContent()).toBe('Too many submissions; try again shortly');
      expect(await alert.evaluate((element) => element === document.activeElement)).toBe(true);
      const above = (await alert.boundingBox())!;
      const name = (await page.getByLabel('Name').boundingBox())!;
      expect(above.y + above.height, 'above the first field').toBeLessThanOrEqual(name.y);
      expect(await page.locator('#fs-e-report').textContent()).toBe('');
      expect(await page.locator('#fs-f-report').getAttribute('aria-invalid')).toBeNull();
      expect(await page.locator('#fs-status').textContent()).toBe('');
      expect(visited.requests).not.toContain(bucketUrl());
      expect(await axeFindings(page)).toEqual([]);
    } finally {
      await visited.close();
    }
  }, 90_000);
});

describe('the embed on another website uploads files the same way', () => {
  it('a small file from http://localhost:<port> goes to storage and is named in the post', async () => {
    const form = await reportsForm();
    const site = await siteServing({
      '/apply': `<!doctype html><html lang="en"><head><title>Apply</title><link rel="icon" href="data:,"></head>
<body><main><h1>Apply</h1><script src="${stack().baseUrl}/embed.js" data-form="${form.key}" async></script></main></body></html>`,
    });
    const visited = await visit(browser, `${site.origin}/apply`);
    const { page } = visited;
    try {
      await page.getByLabel('Name').fill('Grace');
      await page.locator('#fs-f-report').setInputFiles(pdf('notes.pdf', 20_000));
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('#fs-success').waitFor({ state: 'visible', timeout: 15_000 });
      expect(visited.requests).toContain(`${submitUrl(form.key)}/uploads`);
      expect(visited.requests).toContain(bucketUrl());
      expect(offMachine(visited.requests)).toEqual([]);
      expect(visited.errors).toEqual([]);
      const submission = await onlySubmission(form);
      expect(submission.data).toEqual({ name: 'Grace' });
      expect(submission.meta.files).toEqual([
        { field: 'report', name: 'notes.pdf', mime: 'application/pdf', size: 20_000 },
      ]);
    } finally {
      await visited.close();
      await site.close();
    }
  }, 60_000);
});
