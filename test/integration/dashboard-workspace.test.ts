import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

vi.setConfig({ testTimeout: 120_000 });

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

const TABS = [
  'Inbox',
  'Summary',
  'Share',
  'Settings',
  'Fields',
  'Design',
  'Emails',
  'Webhook',
  'Integrations',
];

/** A Pro team's form (the webhook tab is Pro) with one submission. */
async function aForm(name: string) {
  const owner = await teamWithOwner('pro');
  const created = await api('POST', '/v1/forms', { key: owner.apiKey, body: { name } });
  const form = { id: created.body.id as string, key: created.body.key as string };
  await submit(form.key, {
    json: { name: 'Ada', email: 'ada@example.com', message: 'The first one' },
    from: freshVisitor(),
  });
  return { owner, form };
}

const tabs = (page: Page) => page.getByRole('navigation', { name: 'Form' });
const current = (page: Page) => tabs(page).locator('[aria-current="page"]').textContent();
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent);

describe("a form's workspace", () => {
  it('every tab is reached by keyboard, the current one is aria-current, the tabs stay mounted', async () => {
    const { owner, form } = await aForm('Workspace');
    const dashboard = await dashboardAs(browser, owner.email, { path: `/forms/${form.id}` });
    const { page } = dashboard;
    try {
      await page.getByRole('table').waitFor();
      await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
      expect(await tabs(page).getByRole('link').allTextContents()).toEqual(TABS);
      expect(await current(page)).toBe('Inbox');
      await tabs(page).getByRole('link', { name: 'Inbox' }).focus();
      for (const tab of TABS.slice(1)) {
        await page.keyboard.press('Tab');
        expect(await focusedText(page)).toBe(tab);
        await page.keyboard.press('Enter');
        await expect.poll(() => current(page)).toBe(tab);
        expect(new URL(page.url()).pathname).toBe(`/app/forms/${form.id}/${tab.toLowerCase()}`);
        // The header was not drawn anew: the link just followed keeps the focus.
        expect(await focusedText(page)).toBe(tab);
      }
      await page.getByRole('heading', { name: 'Google Sheets' }).waitFor();
      await page.keyboard.down('Shift');
      for (let i = 0; i < TABS.length - 1; i++) await page.keyboard.press('Tab');
      await page.keyboard.up('Shift');
      expect(await focusedText(page)).toBe('Inbox');
      await page.keyboard.press('Enter');
      await page.getByRole('table').waitFor();
      expect(await current(page)).toBe('Inbox');
      // The browser's own line for the one refusal asked for: the webhook tab finds none (404).
      expect(dashboard.errors.filter((error) => !/status of 404/.test(error))).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('the header with its tabs stays at the top while the screen scrolls, at 1280 and 375 px', async () => {
    const { owner, form } = await aForm('Long settings');
    for (const width of [1280, 375]) {
      const dashboard = await dashboardAs(browser, owner.email, {
        path: `/forms/${form.id}/settings`,
        width,
      });
      const { page } = dashboard;
      try {
        await page.getByRole('heading', { name: 'Settings of Long settings' }).waitFor();
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(400);
        const heading = await page.getByRole('heading', { level: 1 }).boundingBox();
        const nav = await tabs(page).boundingBox();
        expect(heading!.y, `${width} px: the name on screen`).toBeGreaterThanOrEqual(0);
        expect(nav!.y + nav!.height, `${width} px: the tabs at the top`).toBeLessThan(260);
        // Still reachable where they are: the Inbox tab is the element at its own place.
        const box = (await tabs(page).getByRole('link', { name: 'Inbox' }).boundingBox())!;
        expect(
          await page.evaluate(
            ([x, y]) => document.elementFromPoint(x!, y!)?.textContent,
            [box.x + box.width / 2, box.y + box.height / 2],
          ),
        ).toBe('Inbox');
      } finally {
        await dashboard.close();
      }
    }
  });

  it('the Actions menu exports CSV and sends a test submission by keyboard', async () => {
    const { owner, form } = await aForm('Menu');
    const dashboard = await dashboardAs(browser, owner.email, { path: `/forms/${form.id}` });
    const { page } = dashboard;
    try {
      await page.getByRole('table').waitFor();
      const actions = page.getByRole('button', { name: 'Actions' });
      await actions.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menu', { name: 'Actions' }).waitFor();
      expect(await actions.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => focusedText(page)).toBe('Export CSV');
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => focusedText(page)).toBe('Send a test submission');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.getByRole('status').allTextContents())
        .toContain('Test submission sent');
      // The inbox reads again: the test submission is on it, no reload asked for.
      await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
      await expect.poll(() => focusedText(page)).toMatch(/^Actions/);
      expect(await page.getByRole('menu').count()).toBe(0);

      // Escape closes it onto its button; ↑ opens it on its last item, ↓ wraps to the first.
      await page.keyboard.press('ArrowUp');
      await expect.poll(() => focusedText(page)).toBe('Send a test submission');
      await page.keyboard.press('Escape');
      expect(await page.getByRole('menu').count()).toBe(0);
      await expect.poll(() => focusedText(page)).toMatch(/^Actions/);
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => focusedText(page)).toBe('Export CSV');
      const download = page.waitForEvent('download');
      await page.keyboard.press('Enter');
      const file = await download;
      const text = await new Response(
        (await file.createReadStream()) as unknown as ReadableStream,
      ).text();
      expect(text).toContain('The first one');

      // The notice was about the inbox it was sent from: another tab drops it.
      await expect
        .poll(() => page.getByRole('status').allTextContents())
        .toContain('Test submission sent');
      await tabs(page).getByRole('link', { name: 'Summary' }).click();
      await expect.poll(() => current(page)).toBe('Summary');
      await expect
        .poll(() => page.getByRole('status').allTextContents())
        .not.toContain('Test submission sent');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a dialog closed gives the focus back to what opened it; Escape in the Actions menu leaves the selection', async () => {
    const { owner, form } = await aForm('Focus');
    const dashboard = await dashboardAs(browser, owner.email, { path: `/forms/${form.id}` });
    const { page } = dashboard;
    try {
      const opener = page.getByRole('button', { name: 'Keyboard shortcuts' });
      await opener.click();
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await help.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      await expect.poll(() => focusedText(page)).toBe('Keyboard shortcuts');

      await page.getByRole('checkbox', { name: /^Select: Ada/ }).check();
      await page.getByText('1 selected').waitFor();
      await page.getByRole('button', { name: 'Actions' }).click();
      await page.getByRole('menu', { name: 'Actions' }).waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('menu').count()).toBe(0);
      expect(await page.getByText('1 selected').count()).toBe(1);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a path with no screen is a 404 page with the way home', async () => {
    const { owner, form } = await aForm('Lost');
    for (const path of ['/nowhere', `/forms/${form.id}/nowhere`]) {
      const dashboard = await dashboardAs(browser, owner.email, { path });
      const { page } = dashboard;
      try {
        await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
        await expectAccessible(page, `404 at ${path}`);
        await page.getByRole('link', { name: 'Back to your forms' }).click();
        await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
        await page.getByRole('link', { name: 'Lost' }).waitFor();
        expect(new URL(page.url()).pathname).toBe('/app');
      } finally {
        await dashboard.close();
      }
    }
  });

  it('a screen that throws while drawing is caught: what happened, try again, the tabs on', async () => {
    const { owner } = await aForm('Broken');
    const dashboard = await dashboardAs(browser, owner.email, { path: '/' });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Forms' }).waitFor();
      // An answer the inbox cannot draw (a submission without answers): a stand-in for any bug.
      const broken = async (route: Route) => {
        const answer = await route.fetch();
        const body = await answer.json();
        for (const item of body.items) item.data = null;
        await route.fulfill({ response: answer, json: body });
      };
      await page.route(/\/v1\/forms\/[^/]+\/submissions\?/, broken);
      await page.getByRole('link', { name: 'Broken' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'This screen failed' });
      await alert.waitFor();
      expect(await alert.textContent()).toContain('Something went wrong');
      expect(await current(page)).toBe('Inbox');

      // A way on: another tab draws as usual.
      await tabs(page).getByRole('link', { name: 'Share' }).click();
      await page.getByRole('heading', { name: 'Share Broken' }).waitFor();
      expect(await alert.count()).toBe(0);

      // Back to the inbox, still broken; once answers are whole again, "Try again" draws it.
      await tabs(page).getByRole('link', { name: 'Inbox' }).click();
      await alert.waitFor();
      await page.unroute(/\/v1\/forms\/[^/]+\/submissions\?/, broken);
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    } finally {
      await dashboard.close();
    }
  });

  it('a screen whose code cannot be fetched is caught too, and "Try again" fetches it anew', async () => {
    const { owner, form } = await aForm('Offline');
    const dashboard = await dashboardAs(browser, owner.email, { path: `/forms/${form.id}` });
    const { page } = dashboard;
    try {
      await page.getByRole('table').waitFor();
      // The first visit's script is in; what is fetched from here on is a lazy screen's chunk.
      const offline = (route: Route) => route.abort('internetdisconnected');
      await page.route('**/app/assets/*.js', offline);
      await tabs(page).getByRole('link', { name: 'Settings' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'This screen failed' });
      await alert.waitFor();
      expect(await current(page)).toBe('Settings');
      expect(await alert.textContent()).toContain('Its code could not be loaded');
      await page.unroute('**/app/assets/*.js', offline);
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.getByRole('heading', { name: 'Settings of Offline' }).waitFor();
      expect(await alert.count()).toBe(0);
    } finally {
      await dashboard.close();
    }
  });

  it('a name saved in Settings shows in the header at once', async () => {
    const { owner, form } = await aForm('Old name');
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${form.id}/settings`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { level: 1, name: 'Old name' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('New name');
      await page.getByLabel('Name', { exact: true }).press('Enter');
      await page.getByRole('heading', { level: 1, name: 'New name' }).waitFor();
      await tabs(page).getByRole('link', { name: 'Summary' }).click();
      await page.getByRole('heading', { name: 'New name: summary' }).waitFor();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('New name');
    } finally {
      await dashboard.close();
    }
  });

  it('a form opened reads the form once for the workspace and the screen, a lazy screen too', async () => {
    const { owner, form } = await aForm('Read once');
    for (const tab of ['', '/summary', '/settings', '/share']) {
      const dashboard = await dashboardAs(browser, owner.email, {
        path: `/forms/${form.id}${tab}`,
      });
      const { page } = dashboard;
      try {
        // The first opening's reads are not the reload's: its form read comes 70-110 ms after
        // its load event, and a reload that reaches the browser later than that (a busy
        // machine) was counted with them, two reads. Counting starts once it is done.
        await page.getByRole('heading', { level: 1, name: 'Read once' }).waitFor();
        await page.waitForLoadState('networkidle');
        const formReads: string[] = [];
        page.on('request', (request) => {
          if (
            request.method() === 'GET' &&
            new URL(request.url()).pathname === `/v1/forms/${form.id}`
          )
            formReads.push(request.url());
        });
        await page.reload();
        await page.getByRole('heading', { level: 1, name: 'Read once' }).waitFor();
        await page.waitForLoadState('networkidle');
        expect(formReads, `form reads opening ${tab || 'the inbox'}`).toHaveLength(1);
      } finally {
        await dashboard.close();
      }
    }
  });

  it('a lazy screen whose code comes long after the workspace read the form reads it no second time', async () => {
    const { owner, form } = await aForm('Late code');
    const dashboard = await dashboardAs(browser, owner.email, { path: `/forms/${form.id}` });
    const { page } = dashboard;
    try {
      await page.getByRole('table').waitFor();
      // The page's clock, moved on by the test: the form's answer ages with no wait.
      await page.clock.install();
      const formReads: string[] = [];
      let sessionAsked = false;
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (path === '/v1/auth/session') sessionAsked = true;
        if (request.method() === 'GET' && path === `/v1/forms/${form.id}`)
          formReads.push(request.url());
      });
      // The entry's own chunks are asked for before the session; a lazy screen's after it.
      const held: Route[] = [];
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/app/assets/*.js', async (route) => {
        if (!sessionAsked) return route.continue();
        held.push(route);
        await released;
        await route.continue();
      });
      await page.goto(page.url().replace(/\/forms\/.*$/, `/forms/${form.id}/settings`));
      await page.getByRole('heading', { level: 1, name: 'Late code' }).waitFor();
      await expect.poll(() => held.length).toBeGreaterThan(0);
      // The settings screen's code comes a minute after the workspace's answer (two seconds
      // was enough to miss it: a second read).
      await page.clock.fastForward(60_000);
      release();
      await page.getByRole('heading', { name: 'Settings of Late code' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(formReads, 'form reads opening settings, its code late').toHaveLength(1);
    } finally {
      await dashboard.close();
    }
  });
});
