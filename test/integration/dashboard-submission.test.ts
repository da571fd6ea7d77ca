import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';
import { connectWebhook, deliveryWhen, newReceiver } from '#test/support/delivery.ts';
import { freshVisitor, multipart, submit } from '#test/support/submit.ts';

vi.setConfig({ testTimeout: 120_000 });

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true },
  { id: 'email', type: 'email', label: 'Email address', required: true },
  { id: 'guests', type: 'number', label: 'Guests', min: 0, max: 5 },
  { id: 'cv', type: 'file', label: 'CV' },
];

async function formWithFields() {
  const owner = await teamWithOwner('pro');
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: 'Applications', type: 'custom' },
  });
  await api('PATCH', `/v1/forms/${created.body.id}`, {
    key: owner.apiKey,
    body: { fields: FIELDS, allowUploads: true },
  });
  return {
    owner,
    form: { id: created.body.id as string, key: created.body.key as string, apiKey: owner.apiKey },
  };
}

describe('one submission', () => {
  it('answers by field in field order, problems at their field, unknown answers after, its origin and its file; opening marks it read', async () => {
    const { owner, form } = await formWithFields();
    const { body, contentType } = await multipart((data) => {
      data.append('note', 'an extra answer');
      data.append('guests', '9');
      data.append('email', 'not-an-address');
      data.append('name', 'Ada');
      data.append('cv', new Blob(['%PDF-1.4 tiny'], { type: 'application/pdf' }), 'cv.pdf');
    });
    const post = await submit(form.key, {
      body,
      contentType,
      from: freshVisitor(),
      headers: {
        referer: 'https://shop.example/contact',
        'user-agent': 'Mozilla/5.0 Firefox/140.0',
      },
    });
    expect(post.status, post.text).toBe(200);
    const id = post.body?.submissionId as string;
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${form.id}/submissions/${id}`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Ada', level: 2 }).waitFor();
      const labels = await page.locator('dl.answers dt').allTextContents();
      expect(labels).toEqual(['Your name', 'Email address', 'Guests', 'CV', 'note']);
      const problems = await page.locator('dl.answers .reason').allTextContents();
      expect(problems).toEqual(['Not an email address', 'Above the largest allowed']);
      // The file is the CV field's answer, not "(no answer)" with the file listed apart.
      const cv = page
        .locator('dl.answers > div')
        .filter({ has: page.locator('dt', { hasText: 'CV' }) });
      expect(await cv.locator('dd').textContent()).toContain('cv.pdf');
      expect(await cv.getByText('(no answer)').count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Files' }).count()).toBe(0);
      // A failed email check: shown as it came, no reply offered.
      expect(await page.getByRole('link', { name: 'Reply' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'not-an-address' }).count()).toBe(0);
      await expect
        .poll(() => page.getByText('shop.example/contact', { exact: false }).count())
        .toBe(1);
      expect(await page.getByText('Firefox', { exact: true }).count()).toBe(1);
      await expectAccessible(page, 'submission');

      const download = page.waitForEvent('download');
      await cv.getByRole('button', { name: 'Download cv.pdf' }).click();
      expect((await download).suggestedFilename()).toBe('cv.pdf');

      const stored = await api('GET', `/v1/forms/${form.id}/submissions/${id}`, {
        key: form.apiKey,
      });
      expect(stored.body.read, 'opened in the dashboard: read').toBe(true);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('newer and older move through the folder; the URL names the submission', async () => {
    const { owner, form } = await formWithFields();
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const post = await submit(form.key, {
        json: { name: `Person ${n}`, email: `p${n}@example.com` },
        from: freshVisitor(),
      });
      ids.push(post.body?.submissionId as string);
    }
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${form.id}/submissions/${ids[1]}`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Person 2' }).waitFor();
      await page.getByRole('link', { name: 'Newer' }).click();
      await page.getByRole('heading', { name: 'Person 3' }).waitFor();
      expect(page.url()).toContain(`/submissions/${ids[2]}`);
      await page.getByRole('link', { name: 'Older' }).click();
      await page.getByRole('heading', { name: 'Person 2' }).waitFor();
      await page.getByRole('link', { name: 'Older' }).click();
      await page.getByRole('heading', { name: 'Person 1' }).waitFor();
      await page.getByRole('link', { name: 'Back to the inbox' }).click();
      await page.getByRole('table').waitFor();
    } finally {
      await dashboard.close();
    }
  });

  it('deleted by someone else while open: a clear message, no console error', async () => {
    const { owner, form } = await formWithFields();
    const post = await submit(form.key, {
      json: { name: 'Gone soon', email: 'g@example.com' },
      from: freshVisitor(),
    });
    const id = post.body?.submissionId as string;
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${form.id}/submissions/${id}`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Gone soon' }).waitFor();
      await api('DELETE', `/v1/forms/${form.id}/submissions`, {
        key: form.apiKey,
        body: { target: { ids: [id] } },
      });
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('deleted');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('the inbox exports its folder as CSV and sends a test submission', async () => {
    const { owner, form } = await formWithFields();
    await submit(form.key, {
      json: { name: 'Row one', email: 'r@example.com' },
      from: freshVisitor(),
    });
    const dashboard = await dashboardAs(browser, owner.email, { path: `/forms/${form.id}` });
    const { page } = dashboard;
    try {
      await page.getByRole('table').waitFor();
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Actions' }).click();
      await page.getByRole('menuitem', { name: 'Export CSV' }).click();
      const file = await download;
      const text = await new Response(
        (await file.createReadStream()) as unknown as ReadableStream,
      ).text();
      expect(text).toContain('Row one');
      // Named by the fields' labels for a person (docs/submissions.md#csv-columns).
      expect(text.split('\n')[0]).toContain('Submission,Received,Your name,Email address');

      await page.getByRole('button', { name: 'Actions' }).click();
      await page.getByRole('menuitem', { name: 'Send a test submission' }).click();
      await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
      await expect.poll(() => page.getByText('test', { exact: true }).count()).toBe(1);
    } finally {
      await dashboard.close();
    }
  });

  it('a submission to act on: titled by its sender, Reply, tel: and http(s) links only, choices as a list, everything escaped, its webhook delivery in words', async () => {
    const owner = await teamWithOwner('pro');
    const created = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Bookings & more', type: 'custom' },
    });
    const form = {
      id: created.body.id as string,
      key: created.body.key as string,
      teamId: owner.teamId,
      apiKey: owner.apiKey,
    };
    const patched = await api('PATCH', `/v1/forms/${form.id}`, {
      key: owner.apiKey,
      body: {
        fields: [
          { id: 'name', type: 'text', label: 'Name' },
          { id: 'email', type: 'email', label: 'Email' },
          { id: 'phone', type: 'tel', label: 'Phone' },
          { id: 'site', type: 'url', label: 'Website' },
          { id: 'topics', type: 'checkbox', label: 'Topics' },
        ],
      },
    });
    expect(patched.status, patched.text).toBe(200);
    const hooks = await newReceiver();
    hooks.script([{ status: 410 }], { status: 200 });
    try {
      await connectWebhook(form, hooks.url);
      const refused = await submit(form.key, {
        json: { message: 'first, refused by the webhook' },
        from: freshVisitor(),
      });
      const refusedId = refused.body?.submissionId as string;
      await deliveryWhen(form, refusedId, 'failed');
      const post = await submit(form.key, {
        json: {
          name: '<b>Ada</b> <img src=x onerror=alert(1)>',
          email: 'ada@example.com',
          phone: '+44 20 7946 0958',
          site: 'https://ada.example/about?x=1&y=2',
          topics: ['Rooms', 'Food, drinks'],
          homepage: 'javascript:alert(1)',
        },
        from: freshVisitor(),
      });
      expect(post.status, post.text).toBe(200);
      const id = post.body?.submissionId as string;
      await deliveryWhen(form, id, 'delivered');

      const dashboard = await dashboardAs(browser, owner.email, {
        path: `/forms/${form.id}/submissions/${id}`,
      });
      const { page } = dashboard;
      try {
        const main = page.getByRole('main');
        await main
          .getByRole('heading', { name: '<b>Ada</b> <img src=x onerror=alert(1)>', level: 2 })
          .waitFor();
        expect(await main.locator('b, img').count(), 'answers are text, never markup').toBe(0);
        const reply = 'mailto:ada@example.com?subject=Re%3A%20Bookings%20%26%20more';
        expect(await main.getByRole('link', { name: 'Reply' }).getAttribute('href')).toBe(reply);
        expect(await main.getByRole('link', { name: 'ada@example.com' }).getAttribute('href')).toBe(
          reply,
        );
        expect(
          await main.getByRole('link', { name: '+44 20 7946 0958' }).getAttribute('href'),
        ).toBe('tel:+442079460958');
        const site = main.getByRole('link', { name: 'https://ada.example/about?x=1&y=2' });
        expect(await site.getAttribute('href')).toBe('https://ada.example/about?x=1&y=2');
        expect(await site.getAttribute('rel')).toBe('noopener noreferrer nofollow');
        // A javascript: answer is shown, never a link.
        await main.getByText('javascript:alert(1)', { exact: true }).waitFor();
        expect(await main.getByRole('link', { name: /javascript/ }).count()).toBe(0);
        expect(await main.locator('a[href^="javascript"]').count()).toBe(0);
        const topics = main
          .locator('dl.answers > div')
          .filter({ has: page.locator('dt', { hasText: 'Topics' }) });
        expect(await topics.getByRole('listitem').allTextContents()).toEqual([
          'Rooms',
          'Food, drinks',
        ]);

        const webhook = main.getByRole('region', { name: 'Webhook' });
        await expect.poll(() => webhook.textContent()).toContain('Delivered');
        expect(await webhook.textContent()).toContain('On the first attempt.');
        // Words for people: no status names, codes or device classes on the page.
        expect(await main.textContent()).not.toMatch(
          /\b(delivered|pending|retrying|cancelled|desktop|mobile)\b|_/,
        );
        await expectAccessible(page, 'a submission with its webhook delivery');

        await page.goto(page.url().replace(id, refusedId));
        await main.getByRole('heading', { name: /^Submission of / }).waitFor();
        await expect.poll(() => webhook.textContent()).toContain('Failed');
        expect(await webhook.textContent()).toContain('it answered 410');
        await webhook.getByRole('link', { name: 'See the webhook’s deliveries' }).click();
        await expect.poll(() => new URL(page.url()).pathname).toBe(`/app/forms/${form.id}/webhook`);
        expect(dashboard.errors).toEqual([]);
      } finally {
        await dashboard.close();
      }
    } finally {
      await hooks.close();
    }
  });
});
