import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { asMember, requestSignIn, signedIn, teamWithOwner } from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import {
  dashboardAs,
  expectAccessible,
  openDashboard,
  signInThroughPage,
} from '#test/support/dashboard.ts';

vi.setConfig({ testTimeout: 90_000 });

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

describe('signing in to the dashboard', () => {
  it('by the code in the email: the forms screen, with the team and the person', async () => {
    const owner = await teamWithOwner();
    const dashboard = await openDashboard(browser);
    const { page } = dashboard;
    try {
      await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).count()).toBe(1);
      await expect.poll(() => page.url()).toMatch(/\/app\/sign-in$/);
      await expectAccessible(page, 'sign-in');
      await signInThroughPage(page, owner.email);
      await page.getByRole('heading', { name: 'Forms' }).waitFor();
      await expect.poll(() => page.getByText(owner.email, { exact: true }).count()).toBe(1);
      await expect
        .poll(() => page.getByText(`Team ${owner.email}`, { exact: true }).count())
        .toBe(1);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('by the link in the email: the token leaves the address bar, and the person is in', async () => {
    const owner = await teamWithOwner();
    const { token } = await requestSignIn(owner.email);
    const dashboard = await openDashboard(browser, { path: `/sign-in#token=${token}` });
    try {
      await dashboard.page.getByRole('heading', { name: 'Forms' }).waitFor();
      expect(dashboard.page.url()).not.toContain(token);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a used link says so, in words', async () => {
    const owner = await teamWithOwner();
    const { token } = await requestSignIn(owner.email);
    await api('POST', '/v1/auth/verify', { key: null, body: { token } });
    const dashboard = await openDashboard(browser, { path: `/sign-in#token=${token}` });
    try {
      await expect
        .poll(() => dashboard.page.getByRole('alert').textContent())
        .toContain('has been used or has expired');
    } finally {
      await dashboard.close();
    }
  });

  it('a wrong code is refused with a message and no console error', async () => {
    const owner = await teamWithOwner();
    const dashboard = await openDashboard(browser);
    const { page } = dashboard;
    try {
      await page.getByLabel('Email address').fill(owner.email);
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await page.getByLabel('6-digit code').fill('000000');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('code is wrong');
      // The 401 of the failed verify is the only failed request; the page stays whole.
      expect(dashboard.errors.filter((e) => !e.includes('401'))).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a session that ends sends the person to sign in, then back where they were', async () => {
    const owner = await teamWithOwner();
    const form = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Kept place' },
    });
    const cookie = await signedIn(owner.email);
    const dashboard = await openDashboard(browser, {
      cookie,
      path: `/forms/${form.body.id}?folder=starred`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Kept place' }).waitFor();
      // Signed out elsewhere (another tab, or the session's end): the next call is 401.
      await asMember(cookie, 'POST', '/v1/auth/sign-out');
      await page.getByRole('link', { name: /Unread/ }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await signInThroughPage(page, owner.email);
      await page.getByRole('heading', { name: 'Kept place' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/app/forms/${form.body.id}`);
      expect(new URL(page.url()).searchParams.get('folder')).toBe('unread');
    } finally {
      await dashboard.close();
    }
  });

  it('signing out ends the session: the API refuses its cookie', async () => {
    const owner = await teamWithOwner();
    const cookie = await signedIn(owner.email);
    const dashboard = await openDashboard(browser, { cookie });
    try {
      await dashboard.page.getByRole('button', { name: 'Sign out' }).click();
      await dashboard.page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect((await asMember(cookie, 'GET', '/v1/forms')).status).toBe(401);
    } finally {
      await dashboard.close();
    }
  });

  it('the page names only its own origin: CSP, no third-party request', async () => {
    const owner = await teamWithOwner();
    const dashboard = await dashboardAs(browser, owner.email);
    try {
      await dashboard.page.getByRole('heading', { name: 'Forms' }).waitFor();
      const response = await fetch(`${stack().baseUrl}/app`);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
      const origins = await dashboard.page.evaluate(() =>
        performance.getEntriesByType('resource').map((entry) => new URL(entry.name).origin),
      );
      expect(new Set(origins)).toEqual(new Set([new URL(stack().baseUrl).origin]));
    } finally {
      await dashboard.close();
    }
  });
});
