import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signInEmailsTo, signInEmailTo, teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { launchChromium } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible, openDashboard } from '#test/support/dashboard.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { localStore } from '#test/support/store.ts';

vi.setConfig({ testTimeout: 120_000 });

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
  await localStore();
});
afterAll(async () => {
  await browser.close();
});

/** A Pro form with `count` submissions a second apart, from Person 0 (oldest) up; ids newest first. */
async function formWith(count: number) {
  const owner = await teamWithOwner('pro');
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: 'Triage', type: 'contact' },
  });
  const form = { id: created.body.id as string, apiKey: owner.apiKey };
  const { ids } = await seedSubmissions({
    formId: form.id,
    teamId: owner.teamId,
    count,
    receivedAt: (i) => new Date(Date.now() - (count - i) * 1000),
    data: (i) => ({ name: `Person ${i}`, email: `p${i}@example.com`, message: `Note ${i}` }),
  });
  return { owner, form, ids };
}

/** Presses Tab until `target` has the focus: the keyboard's way to a control. */
async function tabTo(page: Page, target: Locator) {
  for (let presses = 0; presses < 40; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the control');
}

const title = (page: Page) => page.getByRole('main').getByRole('heading', { level: 2 }).first();
const rows = (page: Page) => page.getByRole('table').locator('tbody tr');
const focusedRow = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('tr')?.textContent ?? '');
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '');

describe('the submission page by keyboard', () => {
  it('the keyboard path: sign in, the inbox, j and Enter, ! marks spam and opens the next, u goes back', async () => {
    const { owner, form, ids } = await formWith(3);
    const dashboard = await openDashboard(browser, { path: `/forms/${form.id}` });
    const { page } = dashboard;
    try {
      // Signed out: the sign-in screen, by keyboard.
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      const seen = await signInEmailsTo(owner.email);
      await tabTo(page, page.getByLabel('Email address'));
      await page.keyboard.type(owner.email);
      await page.keyboard.press('Enter');
      await page.getByText('Check your inbox').waitFor();
      const { code } = await signInEmailTo(owner.email, seen);
      await tabTo(page, page.getByLabel('6-digit code'));
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');

      // The inbox it was opened at: three rows, newest first.
      await expect.poll(() => rows(page).count()).toBe(3);
      expect(await rows(page).first().textContent()).toContain('p2@example.com');

      await page.keyboard.press('j');
      expect(await focusedRow(page)).toContain('p2@example.com');
      await page.keyboard.press('Enter');
      await expect.poll(() => title(page).textContent()).toBe('Person 2');
      expect(page.url()).toContain(`/submissions/${ids[0]}`);

      await page.keyboard.press('!');
      await expect.poll(() => title(page).textContent()).toBe('Person 1');
      expect(page.url()).toContain(`/submissions/${ids[1]}`);
      expect(
        await page.getByRole('status').filter({ hasText: 'Moved to spam' }).textContent(),
      ).toBe('Moved to spam. This is the next submission.');
      const spam = await api('GET', `/v1/forms/${form.id}/submissions/${ids[0]}`, {
        key: form.apiKey,
      });
      expect(spam.body.isSpam, 'the first is spam now').toBe(true);

      await page.keyboard.press('u');
      await expect.poll(() => rows(page).count()).toBe(2);
      expect(await rows(page).first().textContent()).toContain('p1@example.com');
      expect(
        await page.getByRole('navigation', { name: 'Folders' }).getByRole('link').allTextContents(),
      ).toContainEqual(expect.stringMatching(/Spam\s*1/));
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('j/k cross pages, u returns to the page it came from, ? has one Close and gives focus back, # deletes then opens the next, Escape goes back', async () => {
    // 17 submissions: page 1 holds Person 16 to 2, page 2 Person 1 and 0.
    const { owner, form, ids } = await formWith(17);
    const person = (n: number) => ids[16 - n]!;
    const dashboard = await dashboardAs(browser, owner.email, {
      path: `/forms/${form.id}/submissions/${person(1)}`,
    });
    const { page } = dashboard;
    try {
      await expect.poll(() => title(page).textContent()).toBe('Person 1');
      await page.getByRole('link', { name: 'Older' }).waitFor();
      await page.keyboard.press('j');
      await expect.poll(() => title(page).textContent()).toBe('Person 0');
      // The folder's oldest: j has nowhere to go.
      await page.keyboard.press('j');
      await page.getByRole('link', { name: 'Newer' }).waitFor();
      expect(await title(page).textContent()).toBe('Person 0');

      await page.keyboard.press('u');
      await expect.poll(() => rows(page).count()).toBe(2);
      expect(new URL(page.url()).searchParams.get('page')).toBe('2');
      // Back on the row of the submission it left: Person 0, the page's last.
      await expect.poll(() => focusedRow(page)).toContain('p0@example.com');

      await page.keyboard.press('k');
      await page.keyboard.press('Enter');
      await expect.poll(() => title(page).textContent()).toBe('Person 1');
      await page.getByRole('link', { name: 'Newer' }).waitFor();
      await page.keyboard.press('k');
      await expect.poll(() => title(page).textContent()).toBe('Person 2');

      // The list of keys: one button, Close; focus back on what opened it.
      const opener = page.getByRole('button', { name: 'Keyboard shortcuts' });
      await tabTo(page, opener);
      await page.keyboard.press('Enter');
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await help.waitFor();
      expect(await help.getByRole('button').allTextContents()).toEqual(['Close']);
      expect(await help.getByRole('rowheader').allTextContents()).toContain('u or Escape');
      await expectAccessible(page, 'the submission page’s keys');
      await page.keyboard.press('Enter');
      await help.waitFor({ state: 'detached' });
      await expect.poll(() => focusedText(page)).toBe('Keyboard shortcuts');
      // ? opens it too, and Escape closes it without leaving the page.
      await page.keyboard.press('?');
      await help.waitFor();
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });
      expect(await title(page).textContent()).toBe('Person 2');
      await expect.poll(() => focusedText(page)).toBe('Keyboard shortcuts');

      // # asks first; Cancel leaves it, focus back on the page's control.
      await page.keyboard.press('#');
      const question = page.getByRole('dialog', { name: 'Delete this submission?' });
      await question.waitFor();
      await page.keyboard.press('Escape');
      await question.waitFor({ state: 'detached' });
      await expect.poll(() => focusedText(page)).toBe('Keyboard shortcuts');
      await page.keyboard.press('#');
      await question.waitFor();
      await tabTo(page, question.getByRole('button', { name: 'Delete' }));
      await page.keyboard.press('Enter');
      await expect.poll(() => title(page).textContent()).toBe('Person 1');
      expect(await page.getByRole('status').filter({ hasText: 'Deleted' }).textContent()).toBe(
        'Deleted. This is the next submission.',
      );
      const gone = await api('GET', `/v1/forms/${form.id}/submissions/${person(2)}`, {
        key: form.apiKey,
      });
      expect(gone.status).toBe(404);

      await page.getByRole('link', { name: 'Newer' }).waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => rows(page).count()).toBe(15);
      expect(await rows(page).first().textContent()).toContain('p16@example.com');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('opening a form focuses its heading; on a submission s stars, r and U read and unread, R replies, z undoes; u returns focus to its row', async () => {
    const { owner, form, ids } = await formWith(3);
    const dashboard = await dashboardAs(browser, owner.email);
    const { page } = dashboard;
    const status = (text: string) => page.getByRole('status').filter({ hasText: text });
    const stored = async () =>
      (await api('GET', `/v1/forms/${form.id}/submissions/${ids[1]}`, { key: form.apiKey })).body;
    try {
      // The forms list, by keyboard: the form's link, Enter; focus lands on the form's heading.
      await tabTo(page, page.getByRole('link', { name: 'Triage' }));
      await page.keyboard.press('Enter');
      await expect.poll(() => rows(page).count()).toBe(3);
      await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
      expect(await focusedText(page)).toBe('Triage');
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await page.keyboard.press('Enter');
      await expect.poll(() => title(page).textContent()).toBe('Person 1');

      await page.keyboard.press('s');
      await status('Starred').waitFor();
      expect(await page.getByRole('button', { name: 'Unstar' }).getAttribute('aria-pressed')).toBe(
        'true',
      );
      expect((await stored()).starred).toBe(true);
      await page.keyboard.press('z');
      await status('Undone: unstarred').waitFor();
      expect((await stored()).starred).toBe(false);

      await page.keyboard.press('Shift+U');
      await status('Marked unread').waitFor();
      await page.getByRole('button', { name: 'Mark read' }).waitFor();
      expect((await stored()).read).toBe(false);
      await page.keyboard.press('r');
      await status('Marked read').waitFor();
      expect((await stored()).read).toBe(true);

      // The Undo button beside the notice, reached with Tab.
      await page.keyboard.press('s');
      await status('Starred').waitFor();
      await tabTo(page, page.getByRole('button', { name: 'Undo' }));
      await page.keyboard.press('Enter');
      await status('Undone: unstarred').waitFor();
      expect((await stored()).starred).toBe(false);

      // R clicks the Reply link: a mail to the sender about the form.
      await page.evaluate(() => {
        document.getElementById('reply')!.addEventListener('click', (event) => {
          event.preventDefault();
          document.body.dataset.replied = (event.currentTarget as HTMLAnchorElement).href;
        });
      });
      await page.keyboard.press('Shift+R');
      await expect
        .poll(() => page.evaluate(() => document.body.dataset.replied))
        .toBe('mailto:p1@example.com?subject=Re%3A%20Triage');

      // ! opens the next; z puts the one it left back and opens it again.
      await page.keyboard.press('!');
      await expect.poll(() => title(page).textContent()).toBe('Person 0');
      await status('Moved to spam').waitFor();
      await page.keyboard.press('z');
      await expect.poll(() => title(page).textContent()).toBe('Person 1');
      await status('Undone: moved back out of spam.').waitFor();
      expect((await stored()).isSpam).toBe(false);

      // u: the inbox, with focus on this submission's row.
      await page.keyboard.press('u');
      await expect.poll(() => rows(page).count()).toBe(3);
      await expect.poll(() => focusedRow(page)).toContain('p1@example.com');
      await page.keyboard.press('?');
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      // Read once it is drawn: read at the key press, it was once still empty.
      await expect.poll(() => help.getByRole('rowheader').allTextContents()).toContain('z');
      await page.keyboard.press('Escape');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
