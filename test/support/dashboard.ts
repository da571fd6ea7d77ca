import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { signedIn, signInEmailsTo, signInEmailTo } from './accounts.ts';
import { stack } from './api.ts';
import { axeFindings, PAGE_WAIT_MS } from './browser.ts';

/** A page of the dashboard, recording console errors, uncaught exceptions and failed requests. */
export interface DashboardPage {
  page: Page;
  context: BrowserContext;
  errors: string[];
  failed: string[];
  close: () => Promise<void>;
}

export interface DashboardOptions {
  width?: number;
  dark?: boolean;
  path?: string;
  /** The browser's time zone (default: this machine's). */
  timezoneId?: string;
  /** The browser's User-Agent (default: Chromium's own). */
  userAgent?: string;
}

export async function openDashboard(
  browser: Browser,
  options: DashboardOptions & { cookie?: string } = {},
): Promise<DashboardPage> {
  const base = stack().baseUrl;
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: 900 },
    colorScheme: options.dark ? 'dark' : 'light',
    timezoneId: options.timezoneId,
    userAgent: options.userAgent,
    acceptDownloads: true,
  });
  if (options.cookie) {
    await context.addCookies([
      {
        name: 'fs_session',
        value: options.cookie.split('=')[1]!,
        url: base,
        httpOnly: true,
        sameSite: 'Lax',
      },
    ]);
  }
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_WAIT_MS);
  const errors: string[] = [];
  const failed: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(`${base}/app${options.path ?? ''}`);
  return { page, context, errors, failed, close: () => context.close() };
}

/** Signs in through the page as a person does: the address, then the code from the email. */
export async function signInThroughPage(page: Page, email: string): Promise<void> {
  const seen = await signInEmailsTo(email);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect.poll(() => page.getByText('Check your inbox').count()).toBe(1);
  const { code } = await signInEmailTo(email, seen);
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** A signed-in dashboard page for `email`, with the session made over the API (faster). */
export async function dashboardAs(
  browser: Browser,
  email: string,
  options: DashboardOptions = {},
): Promise<DashboardPage> {
  return openDashboard(browser, { ...options, cookie: await signedIn(email) });
}

/** axe-core finds nothing serious or critical on the page as it is. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(await axeFindings(page), `axe on ${where}`).toEqual([]);
}

/** A fact of the summary: the definition (`<dd>`) of the term (`<dt>`) with this visible text. */
export function summaryFact(page: Page, term: string): Locator {
  return page
    .getByRole('definition')
    .filter({ has: page.locator(`xpath=preceding-sibling::dt[.="${term}"]`) })
    .first();
}

/**
 * Reloads the page until `read` gives `expected`: the table stream counts a summary's
 * posts within moments of their answers, and the summary screen shows what it read.
 */
export async function reloadUntil<T>(page: Page, read: () => Promise<T>, expected: T) {
  await expect
    .poll(async () => {
      await page.reload();
      return read();
    })
    .toEqual(expected);
}

/** Presses Tab until `target` has the focus: the keyboard's way to a control. */
export async function tabTo(page: Page, target: Locator, most = 80): Promise<void> {
  for (let presses = 0; presses < most; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the control');
}

/** The HTML form of a form's Share screen, as the owner `email` copies it (`htmlFormSnippet`). */
export async function shareSnippet(
  browser: Browser,
  email: string,
  formId: string,
): Promise<string> {
  const dashboard = await dashboardAs(browser, email, { path: `/forms/${formId}/share` });
  try {
    const field = dashboard.page.getByLabel('HTML form', { exact: true });
    await field.waitFor();
    return await field.inputValue();
  } finally {
    await dashboard.close();
  }
}
