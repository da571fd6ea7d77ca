import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import {
  dashboardAs,
  expectAccessible,
  reloadUntil,
  summaryFact,
} from '#test/support/dashboard.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();

/** The number of a summary total, by its visible term. */
const total = (page: Page, term: string) => summaryFact(page, term).textContent();

describe('counts on every screen (docs/dashboard.md#counts)', () => {
  it('the forms list, the inbox and the summary say the same: N submissions + M tests, spam apart', async () => {
    const owner = await teamWithOwner('pro');
    const created = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Counted' },
    });
    expect(created.status, created.text).toBe(201);
    const form = { id: created.body.id as string, key: created.body.key as string };
    // 4 real posts, 1 link spam, 3 test submissions of which 1 is moved to spam.
    for (const n of [1, 2, 3, 4]) {
      const posted = await submit(form.key, {
        json: { message: `hello ${n}` },
        from: freshVisitor(),
      });
      expect(posted.status, posted.text).toBe(200);
    }
    const spam = await submit(form.key, {
      json: { name: 'http://spam.example', message: 'buy' },
      from: freshVisitor(),
    });
    expect(spam.status, spam.text).toBe(200);
    const tests: string[] = [];
    for (let n = 0; n < 3; n++) {
      const test = await api('POST', `/v1/forms/${form.id}/test-submissions`, {
        key: owner.apiKey,
      });
      expect(test.status, test.text).toBe(201);
      tests.push(test.body.submissionId as string);
    }
    const moved = await api('PATCH', `/v1/forms/${form.id}/submissions`, {
      key: owner.apiKey,
      body: { target: { ids: [tests[0]] }, isSpam: true },
    });
    expect(moved.status, moved.text).toBe(200);

    const dashboard = await dashboardAs(chromium(), owner.email);
    const { page } = dashboard;
    try {
      const said = '4 submissions + 2 tests';
      const row = page.getByRole('list', { name: 'Forms' }).getByRole('listitem');
      await expect.poll(() => row.textContent()).toContain(said);

      await page.getByRole('link', { name: 'Counted' }).click();
      await page.getByRole('heading', { name: 'Counted' }).waitFor();
      // The heading comes with the form; the counts with the inbox's own read, a moment later.
      await expect.poll(() => page.getByText(said, { exact: true }).count()).toBe(1);
      const folders = page.getByRole('navigation', { name: 'Folders' });
      // The All folder holds the submissions and the tests: 4 + 2.
      expect(await folders.getByRole('link', { name: /^All/ }).textContent()).toBe('All 6');
      expect(await folders.getByRole('link', { name: /^Spam/ }).textContent()).toBe('Spam 2');
      expect(await page.getByText('Page 1 of 1 · 6 in All').count()).toBe(1);
      expect(await page.getByText('test', { exact: true }).count(), 'test badges').toBe(2);
      await expectAccessible(page, 'inbox with its counts');

      await page.getByRole('link', { name: 'Summary' }).click();
      await page.getByRole('heading', { name: 'Counted: summary' }).waitFor();
      // The stream counts within moments: reload until it has.
      await reloadUntil(
        page,
        async () => ({
          submissions: await total(page, 'Submissions'),
          tests: await total(page, 'Tests'),
          spam: await total(page, 'Spam'),
        }),
        { submissions: '4', tests: '2', spam: '2' },
      );
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('says one submission and one test in the singular, and no tests when there are none', async () => {
    const owner = await teamWithOwner('pro');
    const created = await api('POST', '/v1/forms', { key: owner.apiKey, body: { name: 'One' } });
    const key = created.body.key as string;
    await submit(key, { json: { message: 'only' }, from: freshVisitor() });
    const other = await api('POST', '/v1/forms', { key: owner.apiKey, body: { name: 'Tested' } });
    await submit(other.body.key as string, { json: { message: 'a' }, from: freshVisitor() });
    await api('POST', `/v1/forms/${other.body.id}/test-submissions`, { key: owner.apiKey });
    const dashboard = await dashboardAs(chromium(), owner.email);
    try {
      const rows = dashboard.page.getByRole('list', { name: 'Forms' }).getByRole('listitem');
      await expect.poll(() => rows.count()).toBe(2);
      const texts = await rows.allTextContents();
      expect(texts[0]).toContain('1 submission + 1 test');
      expect(texts[1]).toContain('1 submission');
      expect(texts[1]).not.toContain('test');
    } finally {
      await dashboard.close();
    }
  });
});
