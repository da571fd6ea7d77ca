/**
 * Issue 42 in Chromium: each file of a submission says where its malware
 * scan stands ("Checking…", "Clean", "Malware found: <name>, deleted",
 * "Could not be checked"), a Download button only where the API gives a
 * link, and the inbox marks a submission with an infected file
 * (docs/uploads-and-pages.md#malware-scanning).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EICAR, EICAR_THREAT } from '#lib/local/emulators/scanner-verdicts.ts';
import { asMember, signedIn, teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';
import { until } from '#test/support/poll.ts';
import { freshVisitor, multipart, submit } from '#test/support/submit.ts';
import { scannerSetting } from '#test/support/uploads.ts';

/** Git-ignored (`.local/`): a screenshot for a human to look at, not committed. */
const OUTPUT_DIR = new URL('../../.local/test-output/', import.meta.url);

vi.setConfig({ testTimeout: 120_000 });

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name' },
  { id: 'cv', type: 'file', label: 'CV' },
  { id: 'letter', type: 'file', label: 'Letter' },
  { id: 'archive', type: 'file', label: 'Archive' },
];

async function formOf(owner: Awaited<ReturnType<typeof teamWithOwner>>) {
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: 'Applications', type: 'custom' },
  });
  await api('PATCH', `/v1/forms/${created.body.id}`, {
    key: owner.apiKey,
    body: { fields: FIELDS, allowUploads: true },
  });
  return { id: created.body.id as string, key: created.body.key as string, apiKey: owner.apiKey };
}

async function postThree(form: { key: string }, name: string) {
  const { body, contentType } = await multipart((data) => {
    data.append('name', name);
    data.append('cv', new Blob(['%PDF-1.4 tiny'], { type: 'application/pdf' }), 'cv.pdf');
    data.append('letter', new Blob([EICAR], { type: 'text/plain' }), 'letter.txt');
    data.append(
      'archive',
      new Blob(['PK not really'], { type: 'application/zip' }),
      'papers.locked.zip',
    );
  });
  const post = await submit(form.key, { body, contentType, from: freshVisitor() });
  expect(post.status, post.text).toBe(200);
  return post.body?.submissionId as string;
}

describe('file states on the submission page', () => {
  it('clean, infected and unchecked files say so; only the clean one has Download; audited; the inbox marks the infected', async () => {
    const owner = await teamWithOwner('pro');
    const form = await formOf(owner);
    const id = await postThree(form, 'Ada');
    await until(
      () =>
        api<{ meta: { files: { scan: string }[] } }>(
          'GET',
          `/v1/forms/${form.id}/submissions/${id}`,
          { key: form.apiKey },
        ),
      (got) => got.body.meta.files.every((file) => file.scan !== 'pending'),
      { timeoutMs: 30_000, intervalMs: 500, what: 'three verdicts' },
    );

    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${form.id}/submissions/${id}`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Ada', level: 2 }).waitFor();
      const answer = (label: string) =>
        page.locator('dl.answers > div').filter({ has: page.locator('dt', { hasText: label }) });
      await expect.poll(() => answer('CV').locator('.scan-state').textContent()).toBe('Clean');
      expect(await answer('Letter').locator('.scan-state').textContent()).toBe(
        `Malware found: ${EICAR_THREAT}, deleted`,
      );
      expect(await answer('Archive').locator('.scan-state').textContent()).toBe(
        'Could not be checked',
      );
      expect(await page.getByRole('button', { name: /^Download/ }).count()).toBe(1);
      expect(await answer('CV').getByRole('button', { name: 'Download cv.pdf' }).count()).toBe(1);
      await expectAccessible(page, 'submission with scanned files');
      await page.screenshot({
        path: new URL('dashboard-file-scans.png', OUTPUT_DIR).pathname,
        fullPage: true,
      });
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }

    // Audited once: which file of which submission, and the threat.
    const audit = await asMember(await signedIn(owner.email), 'GET', '/v1/team/audit?limit=100');
    expect(audit.status, audit.text).toBe(200);
    const infected = (
      audit.body.events as { action: string; details?: Record<string, unknown> }[]
    ).filter((event) => event.action === 'file.infected');
    expect(infected).toHaveLength(1);
    expect(JSON.stringify(infected[0])).toContain(id);
    expect(JSON.stringify(infected[0])).toContain(EICAR_THREAT);

    const inbox = await dashboardAs(browser, owner.email, { path: `/forms/${form.id}` });
    try {
      await inbox.page.getByText('malware found', { exact: true }).first().waitFor();
      expect(await inbox.page.getByText('malware found', { exact: true }).count()).toBe(1);
      expect(inbox.errors).toEqual([]);
    } finally {
      await inbox.close();
    }
  });

  it('a file whose verdict has not come says "Checking…" and offers no Download', async () => {
    const owner = await teamWithOwner('pro');
    const form = await formOf(owner);
    await scannerSetting(form.id, { drop: true });
    const id = await postThree(form, 'Grace');
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${form.id}/submissions/${id}`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Grace', level: 2 }).waitFor();
      expect(await page.locator('.scan-state').allTextContents()).toEqual([
        'Checking…',
        'Checking…',
        'Checking…',
      ]);
      expect(await page.getByRole('button', { name: /^Download/ }).count()).toBe(0);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
