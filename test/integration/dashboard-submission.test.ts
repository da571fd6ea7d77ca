import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';
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
      await page.getByRole('heading', { name: /Submission/ }).waitFor();
      const labels = await page.locator('dl.answers dt').allTextContents();
      expect(labels).toEqual(['Your name', 'Email address', 'Guests', 'CV', 'note']);
      const problems = await page.locator('dl.answers .reason').allTextContents();
      expect(problems).toEqual(['Not an email address', 'Above the largest allowed']);
      await expect
        .poll(() => page.getByText('shop.example/contact', { exact: false }).count())
        .toBe(1);
      expect(await page.getByText('Firefox', { exact: true }).count()).toBe(1);
      await expectAccessible(page, 'submission');

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download cv.pdf' }).click();
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
      await page.getByText('Person 2').waitFor();
      await page.getByRole('link', { name: 'Newer' }).click();
      await page.getByText('Person 3').waitFor();
      expect(page.url()).toContain(`/submissions/${ids[2]}`);
      await page.getByRole('link', { name: 'Older' }).click();
      await page.getByText('Person 2').waitFor();
      await page.getByRole('link', { name: 'Older' }).click();
      await page.getByText('Person 1').waitFor();
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
      await page.getByText('Gone soon').waitFor();
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
      expect(text.split('\n')[0]).toContain('id,createdAt,name,email');

      await page.getByRole('button', { name: 'Actions' }).click();
      await page.getByRole('menuitem', { name: 'Send a test submission' }).click();
      await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
      await expect.poll(() => page.getByText('test', { exact: true }).count()).toBe(1);
    } finally {
      await dashboard.close();
    }
  });
});
