import { describe, expect, it, vi } from 'vitest';
import { FORM_TYPE_WORDS } from '#app/form-types.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';
import { focusedElement, ownerWithForm } from '#test/support/settings-screens.ts';

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();

/** Issue 30, "Settings and fields that guide": the settings screen's index, summary and Save. */

/** Schema text or API names that must never reach the screen. */
const TECHNICAL =
  /Too (small|big)|expected|>=|<=|notifyCc|blockedIps|blockedCountries|captcha[A-Z]/;

describe('the settings screen guides', () => {
  it('a refused save moves the keyboard to an error summary naming the bad lines; each link focuses its field and line; countries are names', async () => {
    const { owner, formId, saved } = await ownerWithForm('pro', 'Guided');
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/settings`,
    });
    const { page } = dashboard;
    try {
      const security = page.getByRole('form', { name: 'Spam and security' });
      // Words for people: no API name (camelCase) anywhere in the screen, placeholders aside.
      const screen = await page.locator('main').innerText();
      expect(screen.replace(/\{\{[^}]*\}\}/g, '')).not.toMatch(/\b[a-z]+[A-Z]\w*/);
      const ips = security.getByLabel('Blocked IP addresses or ranges (one a line)');
      const countries = security.getByLabel('Blocked countries (one a line)');
      // A blank line counts: the bad range is on line 4 as the person sees it.
      await ips.fill('10.0.0.0/8\n\n203.0.113.7\n10.0.0.300/8');
      await countries.fill('Germany\nAtlantis\nfr');
      await security.getByRole('button', { name: 'Save spam and security' }).click();

      await expect
        .poll(async () => (await focusedElement(page)).text)
        .toBe('2 things to correct: nothing was saved');
      const links = security.locator('.error-summary').getByRole('link');
      expect(await links.allTextContents()).toEqual([
        'Blocked IP ranges, line 4: “10.0.0.300/8” is not an IP address or range (such as 203.0.113.0/24)',
        'Blocked countries, line 2: “Atlantis” is not a country name or code',
      ]);
      expect(await ips.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('main').innerText()).not.toMatch(TECHNICAL);
      expect((await saved()).blockedIps).toEqual([]);

      await links.first().click();
      await expect
        .poll(() => focusedElement(page))
        .toMatchObject({ id: 'setting-blockedIps', selected: '10.0.0.300/8' });
      await links.nth(1).click();
      await expect
        .poll(() => focusedElement(page))
        .toMatchObject({ id: 'setting-blockedCountries', selected: 'Atlantis' });

      await ips.fill('10.0.0.0/8\n203.0.113.7');
      await countries.fill('Germany\nfr');
      await security.getByRole('button', { name: 'Save spam and security' }).click();
      await security.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect(await security.locator('.error-summary').count()).toBe(0);
      // The API keeps codes; the screen shows names.
      expect((await saved()).blockedCountries).toEqual(['DE', 'FR']);
      await expect.poll(() => countries.inputValue()).toBe('Germany (DE)\nFrance (FR)');

      // A rule only the route checks (a captcha needs its keys): its 400 in words too.
      await security.getByLabel('Ask for a Turnstile captcha').check();
      await security.getByRole('button', { name: 'Save spam and security' }).click();
      await expect
        .poll(async () => (await focusedElement(page)).text)
        .toBe('One thing to correct: nothing was saved');
      expect(await security.locator('.error-summary li').textContent()).toBe(
        'Ask for a Turnstile captcha: needs a Turnstile site key and secret key',
      );
      expect(await page.locator('main').innerText()).not.toMatch(TECHNICAL);
      await expectAccessible(page, 'settings with an error summary');
      // The route's refusal is the one thing the browser logged.
      expect(dashboard.errors).toEqual([
        'Failed to load resource: the server responded with a status of 400 (Bad Request)',
      ]);
    } finally {
      await dashboard.close();
    }
  });

  it('an index links each section; a section shows “Unsaved changes” until saved, and its Save stays in sight while it scrolls; the form type says what it does', async () => {
    const { owner, formId, saved } = await ownerWithForm('pro', 'Guided');
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/settings`,
    });
    const { page } = dashboard;
    try {
      const index = page.getByRole('navigation', { name: 'Sections' });
      await index.getByRole('link', { name: 'Auto-reply' }).click();
      await expect
        .poll(async () => (await focusedElement(page)).id)
        .toBe('settings-auto-reply-title');

      const general = page.getByRole('form', { name: 'General' });
      const type = general.getByLabel('Form type (picks the summary)');
      await general.getByText(FORM_TYPE_WORDS.contact.description).waitFor();
      await type.selectOption('feedback');
      await general.getByText(FORM_TYPE_WORDS.feedback.description).waitFor();
      expect(await type.evaluate((select) => select.getAttribute('aria-describedby'))).toBeTruthy();
      await general.getByText('Unsaved changes').waitFor();
      await index.getByRole('link', { name: 'General (unsaved changes)' }).waitFor();
      await general.getByRole('button', { name: 'Save general' }).click();
      await expect.poll(async () => (await saved()).type).toBe('feedback');
      // The table holds the change before the screen has read the answer: poll the screen.
      await expect.poll(() => general.getByText('Unsaved changes').count()).toBe(0);
      await index.getByRole('link', { name: 'General', exact: true }).waitFor();

      // A short window: the auto-reply section is taller than it, and its Save stays in sight
      // at every point of the section's scroll.
      await page.setViewportSize({ width: 1280, height: 500 });
      const reply = page.getByRole('form', { name: 'Auto-reply' });
      const save = reply.getByRole('button', { name: 'Save auto-reply' });
      const section = (await reply.boundingBox())!;
      expect(section.height).toBeGreaterThan(700);
      const top = await reply.evaluate((form) => form.getBoundingClientRect().top + window.scrollY);
      for (const into of [100, 300]) {
        await page.evaluate((y) => window.scrollTo(0, y), top + into);
        await expect
          .poll(async () => {
            const box = (await save.boundingBox())!;
            return box.y >= 0 && box.y + box.height <= 500;
          })
          .toBe(true);
      }
      // It is the Save at its place: a click there saves.
      await reply.getByLabel('Replies an hour, at most').fill('');
      await save.click();
      await expect
        .poll(async () => (await focusedElement(page)).text)
        .toBe('One thing to correct: nothing was saved');
      expect(await reply.locator('.error-summary li').textContent()).toBe(
        'Replies an hour, at most: must be a number',
      );
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('the notification goes to a list of up to 4 more people: added, refused by its row, saved', async () => {
    const { owner, formId, saved } = await ownerWithForm('pro', 'Guided');
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/settings`,
    });
    const { page } = dashboard;
    try {
      const notifications = page.getByRole('form', { name: 'Notifications' });
      const list = notifications.getByRole('group', { name: 'Also send them to' });
      const add = list.getByRole('button', { name: /^Add an address/ });
      for (const [row, value] of [
        'desk@example.com',
        'sales at example',
        'ops@example.com',
      ].entries()) {
        await add.click();
        const input = list.getByRole('textbox', { name: `Address ${row + 1}`, exact: true });
        await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
        await input.fill(value);
      }
      await notifications.getByRole('button', { name: 'Save notifications' }).click();
      await expect
        .poll(async () => (await focusedElement(page)).text)
        .toBe('One thing to correct: nothing was saved');
      const link = notifications.locator('.error-summary').getByRole('link');
      expect(await link.textContent()).toBe(
        'Also send them to, address 2: “sales at example” is not an email address',
      );
      await link.click();
      await expect.poll(async () => (await focusedElement(page)).id).toBe('setting-notifyCc-1');
      expect(
        await list
          .getByRole('textbox', { name: 'Address 2', exact: true })
          .getAttribute('aria-invalid'),
      ).toBe('true');

      await list.getByRole('textbox', { name: 'Address 2', exact: true }).fill('sales@example.com');
      await add.click();
      await list.getByRole('textbox', { name: 'Address 4', exact: true }).fill('DESK@example.com');
      expect(await add.isDisabled()).toBe(true);
      await notifications.getByRole('button', { name: 'Save notifications' }).click();
      await notifications.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      // The route keeps one spelling of an address.
      expect((await saved()).notifyCc).toEqual([
        'desk@example.com',
        'sales@example.com',
        'ops@example.com',
      ]);
      await expect.poll(() => list.getByRole('textbox').count()).toBe(3);
      await list.getByRole('button', { name: 'Remove address 1' }).click();
      await notifications.getByRole('button', { name: 'Save notifications' }).click();
      await expect
        .poll(async () => (await saved()).notifyCc)
        .toEqual(['sales@example.com', 'ops@example.com']);
      await expectAccessible(page, 'settings with recipients');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('privacy: how long submissions are kept, refused in words out of range, saved, and emptied to keep them', async () => {
    const { owner, formId, saved } = await ownerWithForm('free', 'Kept');
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/settings`,
    });
    const { page } = dashboard;
    try {
      const privacy = page.getByRole('form', { name: 'Privacy' });
      const days = privacy.getByLabel('Keep submissions for (days)');
      const save = privacy.getByRole('button', { name: 'Save privacy' });
      await days.fill('0');
      await save.click();
      await expect
        .poll(async () => (await focusedElement(page)).text)
        .toMatch(/thing to correct: nothing was saved/);
      expect(await privacy.innerText()).not.toMatch(TECHNICAL);
      expect((await saved()).retentionDays).toBe(null);
      await days.fill('30');
      await save.click();
      await privacy.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect((await saved()).retentionDays).toBe(30);
      await days.fill('');
      await save.click();
      await expect.poll(async () => (await saved()).retentionDays).toBe(null);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
