import { parse as parseCsv } from 'csv-parse/sync';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, openDashboard, signInThroughPage } from '#test/support/dashboard.ts';
import { freshVisitor, multipart, submit } from '#test/support/submit.ts';

vi.setConfig({ testTimeout: 120_000 });

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

/** A job application with a CV, as a new owner would make it, and one applicant's post. */
async function application() {
  const owner = await teamWithOwner('pro');
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: 'Jobs', type: 'custom' },
  });
  const form = { id: created.body.id as string, key: created.body.key as string };
  const patched = await api('PATCH', `/v1/forms/${form.id}`, {
    key: owner.apiKey,
    body: {
      allowUploads: true,
      fields: [
        { id: 'name', type: 'text', label: 'Your name' },
        { id: 'role', type: 'select', label: 'Which role?', options: ['Cook', 'Waiter'] },
        { id: 'cv', type: 'file', label: 'CV' },
      ],
    },
  });
  expect(patched.status, patched.text).toBe(200);
  const upload = await multipart((body) => {
    body.append('name', 'Ada Lovelace');
    body.append('role', 'Cook');
    body.append(
      'cv',
      new Blob([Buffer.from('%PDF ada')], { type: 'application/pdf' }),
      'ada-cv.pdf',
    );
  });
  const posted = await submit(form.key, { ...upload, from: freshVisitor() });
  expect(posted.status, posted.text).toBe(200);
  return { owner, form, submissionId: posted.body?.submissionId as string };
}

describe('the CSV export, as an owner uses it', () => {
  it('the Actions menu exports columns named by the labels; the CV column names the file and links to the submission, which opens signed out after a sign-in and downloads the file', async () => {
    const { owner, form, submissionId } = await application();
    const dashboard = await dashboardAs(browser, owner.email, { path: `/forms/${form.id}` });
    let link = '';
    try {
      await dashboard.page.getByRole('table').waitFor();
      const download = dashboard.page.waitForEvent('download');
      await dashboard.page.getByRole('button', { name: 'Actions' }).click();
      await dashboard.page.getByRole('menuitem', { name: 'Export CSV' }).click();
      const file = await download;
      const bytes = Buffer.from(
        await new Response(
          (await file.createReadStream()) as unknown as ReadableStream,
        ).arrayBuffer(),
      );
      const [header, row] = parseCsv(bytes, { bom: true }) as string[][];
      expect(header!.slice(0, 5)).toEqual([
        'Submission',
        'Received',
        'Your name',
        'Which role?',
        'CV',
      ]);
      expect(header!.at(-1)).toBe('Files');
      const page = `${stack().baseUrl}/app/forms/${form.id}/submissions/${submissionId}`;
      expect(row![4]).toBe(`ada-cv.pdf — ${page}`);
      link = row![4]!.split(' — ')[1]!;
      // Not a signed storage URL that dies in 15 minutes.
      expect(link).not.toMatch(/X-Amz|Signature|Expires/i);
    } finally {
      await dashboard.close();
    }

    // The link, opened in a browser with no session, signs in and lands on the submission.
    const signedOut = await openDashboard(browser, {
      path: link.slice(`${stack().baseUrl}/app`.length),
    });
    const { page } = signedOut;
    try {
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await signInThroughPage(page, owner.email);
      await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
      const saved = page.waitForEvent('download');
      await page.getByRole('button', { name: /Download/ }).click();
      const cv = await saved;
      expect(cv.suggestedFilename()).toBe('ada-cv.pdf');
      const content = await new Response(
        (await cv.createReadStream()) as unknown as ReadableStream,
      ).text();
      expect(content).toBe('%PDF ada');
      expect(signedOut.errors).toEqual([]);
    } finally {
      await signedOut.close();
    }
  });

  it('scripts keep the ids: header=ids by default, and the file link in the CV column too', async () => {
    const { owner, form, submissionId } = await application();
    const response = await fetch(`${stack().baseUrl}/v1/forms/${form.id}/export.csv`, {
      headers: { authorization: `Bearer ${owner.apiKey}` },
    });
    expect(response.status).toBe(200);
    const [header, row] = parseCsv(Buffer.from(await response.arrayBuffer()), {
      bom: true,
    }) as string[][];
    expect(header!.slice(0, 5)).toEqual(['id', 'createdAt', 'name', 'role', 'cv']);
    expect(row![4]).toBe(
      `ada-cv.pdf — ${stack().baseUrl}/app/forms/${form.id}/submissions/${submissionId}`,
    );
    expect(row!.at(-1)).toBe('ada-cv.pdf');
  });
});
