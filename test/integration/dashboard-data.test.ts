import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs } from '#test/support/dashboard.ts';
import { newReceiver } from '#test/support/delivery.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { localStore } from '#test/support/store.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';

/**
 * The dashboard's data layer in Chromium (docs/dashboard.md#data-layer): a
 * read replaced by a newer one never shows, however late its answer comes,
 * and a failed action says so. Slow answers are real answers held back by
 * `page.route` until the newer read has shown.
 */

vi.setConfig({ testTimeout: 120_000 });

let browser: Browser;
let receiver: WebhookReceiver;
beforeAll(async () => {
  browser = await launchChromium();
  receiver = await newReceiver();
  await localStore();
});
afterAll(async () => {
  await browser.close();
  await receiver.close();
});

/**
 * Holds the first request `matches` picks until `release()`, then lets it go on to the
 * service; `ended` settles when it has an answer or failed (a page that aborted it).
 */
async function holdOne(page: Page, matches: (url: URL) => boolean) {
  let arrived!: (route: Route) => void;
  const held = new Promise<Route>((resolve) => {
    arrived = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let taken = false;
  await page.route(
    (url) => !taken && matches(url),
    async (route) => {
      if (taken) {
        await route.fallback();
        return;
      }
      taken = true;
      arrived(route);
      await released;
      // A page that aborted the request meanwhile has nothing left to answer.
      await route.continue().catch(() => undefined);
    },
  );
  return {
    held,
    release,
    /** Released, and its answer (or its failure) has reached the page. */
    ended: async () => {
      const route = await held;
      release();
      await route.request().response();
    },
  };
}

/** Time for the page to act on an answer that just came (nothing should change: a short look). */
const settle = (page: Page) => page.waitForTimeout(400);

async function proOwner() {
  const owner = await teamWithOwner('pro');
  const form = async (name: string) => {
    const created = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name, type: 'contact' },
    });
    return created.body.id as string;
  };
  return { owner, form };
}

describe('the dashboard data layer', () => {
  it('search: a query changed while the older one is still searching shows only the new query’s matches', async () => {
    const { owner, form } = await proOwner();
    const formId = await form('Orchard');
    // 450 stored: the service reads 200 a call, so "apple" (45 matches) takes calls after the first.
    await seedSubmissions({
      formId,
      teamId: owner.teamId,
      count: 450,
      receivedAt: (i) => new Date(Date.now() - (450 - i) * 1000),
      data: (i) => ({
        message:
          i % 10 === 0 ? `apple ${i}` : [5, 205, 405].includes(i) ? `pear ${i}` : `note ${i}`,
      }),
    });
    const dashboard = await dashboardAs(browser, owner.email, { path: `/forms/${formId}` });
    const { page } = dashboard;
    try {
      await page.getByRole('searchbox', { name: 'Search answers' }).waitFor();
      // The older query's second call (it carries the cursor) answers only after the new query's.
      const slow = await holdOne(
        page,
        (url) =>
          url.pathname.endsWith('/submissions/search') &&
          url.searchParams.get('q') === 'apple' &&
          url.searchParams.has('cursor'),
      );
      await page.getByRole('searchbox', { name: 'Search answers' }).fill('apple');
      await page.getByRole('button', { name: 'Search' }).click();
      await slow.held;

      await page.getByRole('searchbox', { name: 'Search answers' }).fill('pear');
      await page.getByRole('button', { name: 'Search' }).click();
      // The matches are rows of the inbox's own table.
      const results = page.getByRole('region', { name: /matches? for/ }).getByRole('table');
      await page
        .getByRole('heading', { name: '3 matches for “pear”, spam not included' })
        .waitFor();
      await page.getByText('Searched 450 of 450, tests and spam included.').waitFor();

      await slow.ended();
      await settle(page);
      expect(await page.getByRole('heading', { name: /matches? for/ }).textContent()).toBe(
        '3 matches for “pear”, spam not included',
      );
      expect(await results.getByRole('link').allTextContents()).toEqual([
        'Unread: pear 405',
        'Unread: pear 205',
        'Unread: pear 5',
      ]);
      expect(dashboard.errors.filter((e) => e.startsWith('uncaught'))).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('inbox: a slow answer for the folder left never replaces the folder opened since', async () => {
    const { owner, form } = await proOwner();
    const formId = await form('Folders');
    const seed = (count: number, label: string, starred: boolean, offset: number) =>
      seedSubmissions({
        formId,
        teamId: owner.teamId,
        count,
        flags: { starred },
        receivedAt: (i) => new Date(Date.now() - (offset + count - i) * 1000),
        data: (i) => ({ message: `${label} ${i}` }),
      });
    await seed(4, 'Plain', false, 10);
    await seed(2, 'Starred', true, 0);
    const dashboard = await dashboardAs(browser, owner.email, { path: `/forms/${formId}` });
    const { page } = dashboard;
    const rows = page.getByRole('table').locator('tbody tr');
    try {
      await expect.poll(() => rows.count()).toBe(6);
      const slow = await holdOne(
        page,
        (url) =>
          url.pathname.endsWith('/submissions') && url.searchParams.get('filter') === 'unread',
      );
      const folders = page.getByRole('navigation', { name: 'Folders' });
      await folders.getByRole('link', { name: /^Unread/ }).click();
      await slow.held;
      await folders.getByRole('link', { name: /^Starred/ }).click();
      await expect.poll(() => rows.count()).toBe(2);

      await slow.ended();
      await settle(page);
      expect(await rows.count()).toBe(2);
      expect(await page.getByRole('table').textContent()).not.toContain('Plain');
      expect(
        await folders.getByRole('link', { name: /^Starred/ }).getAttribute('aria-current'),
      ).toBe('page');
    } finally {
      await dashboard.close();
    }
  });

  it('form loader: a slow answer for the form left never replaces the form opened since', async () => {
    const { owner, form } = await proOwner();
    const alpha = await form('Alpha');
    const beta = await form('Beta');
    const dashboard = await dashboardAs(browser, owner.email, { path: `/forms/${alpha}/settings` });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Settings of Alpha' }).waitFor();
      const slow = await holdOne(page, (url) => url.pathname.endsWith(`/v1/forms/${beta}`));
      // The same screen for another form, as a link or the history does it: no reload.
      await page.evaluate(
        (path) => {
          window.history.pushState(null, '', path);
          window.dispatchEvent(new PopStateEvent('popstate'));
        },
        `${new URL(page.url()).pathname.replace(alpha, beta)}`,
      );
      await slow.held;
      const alphaAgain = page.waitForResponse((response) =>
        response.url().endsWith(`/v1/forms/${alpha}`),
      );
      await page.goBack();
      await alphaAgain;
      await page.getByRole('heading', { name: 'Settings of Alpha' }).waitFor();

      await slow.ended();
      await settle(page);
      expect(new URL(page.url()).pathname).toContain(alpha);
      expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toBe(
        'Settings of Alpha',
      );
    } finally {
      await dashboard.close();
    }
  });

  it('submission: a slow answer for the submission left never replaces the one opened since', async () => {
    const { owner, form } = await proOwner();
    const formId = await form('Pair');
    const { ids } = await seedSubmissions({
      formId,
      teamId: owner.teamId,
      count: 2,
      receivedAt: (i) => new Date(Date.now() - (2 - i) * 1000),
      data: (i) => ({ message: i === 0 ? 'the older one' : 'the newer one' }),
    });
    const [newer, older] = ids as [string, string];
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${formId}/submissions/${newer}`,
    });
    const { page } = dashboard;
    try {
      await page.getByText('the newer one').waitFor();
      const slow = await holdOne(page, (url) => url.pathname.endsWith(`/submissions/${older}`));
      await page.evaluate(
        (path) => {
          window.history.pushState(null, '', path);
          window.dispatchEvent(new PopStateEvent('popstate'));
        },
        new URL(page.url()).pathname.replace(newer, older),
      );
      await slow.held;
      const newerAgain = page.waitForResponse((response) =>
        new URL(response.url()).pathname.endsWith(`/submissions/${newer}`),
      );
      await page.goBack();
      await newerAgain;
      await page.getByText('the newer one').waitFor();

      await slow.ended();
      await settle(page);
      expect(new URL(page.url()).pathname).toContain(newer);
      expect(await page.getByText('the older one').count()).toBe(0);
      expect(await page.getByText('the newer one').count()).toBeGreaterThan(0);
    } finally {
      await dashboard.close();
    }
  });

  it('settings: a new key the service refuses says why, and nothing is left unhandled', async () => {
    const { owner, form } = await proOwner();
    const formId = await form('Keyed');
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${formId}/settings`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Danger zone' }).waitFor();
      // Deleted elsewhere meanwhile: the service answers 404.
      await api('DELETE', `/v1/forms/${formId}`, { key: owner.apiKey });
      await page.getByRole('button', { name: 'Give the form a new key' }).click();
      const ask = page.getByRole('dialog', { name: 'Give the form a new key?' });
      await ask.getByRole('button', { name: 'New key', exact: true }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not found/i);
      expect(dashboard.errors.filter((e) => e.startsWith('uncaught'))).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('webhook: a rotation the service refuses and a disconnect that cannot reach it say so, and nothing is left unhandled', async () => {
    const { owner, form } = await proOwner();
    const formId = await form('Hooked');
    const put = await api('PUT', `/v1/forms/${formId}/webhook`, {
      key: owner.apiKey,
      body: { url: receiver.url },
    });
    expect(put.status, put.text).toBeLessThan(300);
    const dashboard = await dashboardAs(browser, owner.email, { path: `/forms/${formId}/webhook` });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Where submissions go' }).waitFor();
      // Disconnected elsewhere meanwhile: rotating answers 404.
      await api('DELETE', `/v1/forms/${formId}/webhook`, { key: owner.apiKey });
      await page.getByRole('button', { name: 'Rotate the secret' }).click();
      await page
        .getByRole('dialog', { name: 'Rotate the signing secret?' })
        .getByRole('button', { name: 'Rotate', exact: true })
        .click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toMatch(/not found|no webhook/i);

      // The network fails under the disconnect.
      await page.route(
        (url) => url.pathname.endsWith(`/v1/forms/${formId}/webhook`),
        (route) =>
          route.request().method() === 'DELETE' ? route.abort('connectionreset') : route.fallback(),
      );
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await page
        .getByRole('dialog', { name: 'Disconnect the webhook?' })
        .getByRole('button', { name: 'Disconnect', exact: true })
        .click();
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toContain('could not be reached');
      expect(dashboard.errors.filter((e) => e.startsWith('uncaught'))).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
