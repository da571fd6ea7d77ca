import { mkdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible, summaryFact, tabTo } from '#test/support/dashboard.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

/**
 * The form's logic on the fields screen (docs/dashboard.md#logic): a save
 * keeps the logic the API gave the form; page breaks, "Show only if…" and
 * "Then go to…" built from menus (one rule by keyboard only); the save's
 * refusals said at the rule; "Try the form" walks the branches with the
 * service's own evaluator. axe-clean, at 1280 px and at 375 px dark.
 */

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();
const OUTPUT_DIR = new URL('../../.local/test-output/', import.meta.url);
mkdirSync(OUTPUT_DIR, { recursive: true });

const when = (field: string, op: string, value?: string | string[]) => ({
  all: [{ field, op, ...(value === undefined ? {} : { value }) }],
});

/** Every kind of logic, given through the API. */
const LOGIC = {
  fields: [
    { id: 'plan', type: 'select', label: 'Plan', options: ['Free', 'Team'], required: true },
    { id: 'seats', type: 'number', label: 'Seats', min: 1, showIf: when('plan', 'eq', 'Team') },
    {
      id: 'why',
      type: 'textarea',
      label: 'Why',
      requiredIf: { any: [{ field: 'seats', op: 'gte', value: '50' }] },
    },
    { id: 'source', type: 'hidden', label: 'Source', maxLength: 40 },
    { id: 'email', type: 'email', label: 'Email', prefill: true },
  ],
  pages: [
    {
      id: 'start',
      title: 'Your plan',
      fields: ['plan'],
      next: [{ if: when('plan', 'eq', 'Free'), goTo: 'contact' }],
    },
    { id: 'team', title: 'Your team', fields: ['seats', 'why', 'source'] },
    { id: 'contact', title: 'Contact', fields: ['email'] },
  ],
  notifyRules: [{ if: when('plan', 'eq', 'Team'), to: ['sales@example.com'] }],
};

async function formWith(body: Record<string, unknown>) {
  const owner = await teamWithOwner('pro');
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name: 'Signup', type: 'contact' },
  });
  const formId = created.body.id as string;
  const key = created.body.key as string;
  const patched = await api('PATCH', `/v1/forms/${formId}`, { key: owner.apiKey, body });
  expect(patched.status, patched.text).toBe(200);
  const read = async () =>
    (await api('GET', `/v1/forms/${formId}`, { key: owner.apiKey })).body as {
      fields: Record<string, unknown>[];
      pages: unknown;
      notifyRules: unknown;
    };
  return { owner, formId, key, read };
}

describe('the fields screen and the form’s logic', () => {
  it('keeps the logic the API gave: a label changed, every rule, page, hidden and prefilled field and routing rule is saved as it was', async () => {
    const { owner, formId, key, read } = await formWith(LOGIC);
    const before = await read();
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/fields`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Fields of Signup' }).waitFor();
      // The pages as sections, in order, with the fields they hold.
      expect(await page.getByRole('heading', { level: 3 }).allTextContents()).toEqual([
        'Page 1: Your plan',
        'Page 2: Your team',
        'Page 3: Contact',
        'Try the form',
      ]);
      const team = page.getByRole('region', { name: 'Page 2: Your team' });
      await team
        .getByRole('button', { name: /^Field 2: Seats Number, optional, shown only if…/ })
        .waitFor();
      await page.getByRole('button', { name: /^Field 5: Email/ }).click();
      const email = page.getByRole('group', { name: 'Field 5: Email' });
      expect(await email.getByLabel('Can be filled from the page address').isChecked()).toBe(true);
      await email.getByLabel('Label', { exact: true }).fill('Work email');
      await page.getByRole('button', { name: 'Save fields' }).click();
      await page.getByText('Fields saved.').waitFor();
      const after = await read();
      expect(after.fields[4]?.label).toBe('Work email');
      expect({ ...after.fields[4], label: 'Email' }).toEqual(before.fields[4]);
      expect(after.fields.slice(0, 4)).toEqual(before.fields.slice(0, 4));
      expect(after.pages).toEqual(before.pages);
      expect(after.notifyRules).toEqual(before.notifyRules);
      expect(after.pages).toEqual(LOGIC.pages);
      expect(after.fields[1]?.showIf).toEqual(LOGIC.fields[1]!.showIf);
      expect(after.fields[3]).toMatchObject({ type: 'hidden', maxLength: 40 });

      // Plan's id retyped: the rule, the jump and the routing rule that name it follow it.
      await page.getByRole('button', { name: /^Field 1: Plan/ }).click();
      await page.getByRole('group', { name: 'Field 1: Plan' }).getByLabel(/^Id/).fill('tier');
      await page.getByRole('button', { name: 'Save fields' }).click();
      await expect.poll(async () => (await read()).fields[0]?.id).toBe('tier');
      const renamed = await read();
      expect(renamed.fields[1]?.showIf).toEqual(when('tier', 'eq', 'Team'));
      expect((renamed.pages as typeof LOGIC.pages)[0]!.next).toEqual([
        { if: when('tier', 'eq', 'Free'), goTo: 'contact' },
      ]);
      expect(renamed.notifyRules).toEqual([
        { if: when('tier', 'eq', 'Team'), to: ['sales@example.com'] },
      ]);

      // A visitor on the Free branch: the submission page says the step it was sent from.
      const sent = await submit(key, {
        json: { tier: 'Free', email: 'ada@example.com' },
        from: freshVisitor(),
      });
      expect(sent.status, sent.text).toBe(200);
      const id = sent.body?.submissionId as string;
      await page.goto(page.url().replace(/\/fields$/, `/submissions/${id}`));
      await page.getByRole('heading', { name: 'Where it came from' }).waitFor();
      await expect
        .poll(() => summaryFact(page, 'Sent from').textContent())
        .toBe('Step 3 of 3: Contact');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('builds a rule by keyboard, a page break and a jump; refusals at the rule; Try the form walks the branches', async () => {
    const { owner, formId, read } = await formWith({
      fields: [
        { id: 'plan', type: 'select', label: 'Plan', options: ['Free', 'Team'], required: true },
        { id: 'seats', type: 'number', label: 'Seats', required: true },
        { id: 'email', type: 'email', label: 'Email' },
      ],
    });
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/fields`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Fields of Signup' }).waitFor();
      // "Show only if…" on Seats, by keyboard only: the menus offer Plan, "is", and Plan's options.
      const toggle = page.getByRole('button', { name: /^Field 2: Seats/ });
      await tabTo(page, toggle);
      await page.keyboard.press('Enter');
      const seats = page.getByRole('group', { name: 'Field 2: Seats' });
      const showIf = seats.getByRole('button', { name: 'Show only if…' });
      await tabTo(page, showIf);
      await page.keyboard.press('Enter');
      const rule = seats.getByRole('group', { name: 'Show only if' });
      const field = rule.getByLabel('Field');
      // The keyboard lands in the new condition's first menu.
      await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await field.locator('option:checked').textContent()).toBe('Plan');
      expect(await rule.getByLabel('Test').locator('option').allTextContents()).toEqual([
        'is',
        'is not',
        'is one of',
        'is none of',
        'is not answered',
        'is answered',
      ]);
      const value = rule.getByLabel('Value');
      expect(await value.locator('option').allTextContents()).toEqual(['Free', 'Team']);
      await tabTo(page, value);
      await page.keyboard.press('ArrowDown');
      expect(await value.inputValue()).toBe('Team');
      await expectAccessible(page, 'a field’s rule');

      // A page break: the form becomes two pages, the second empty until Email moves down to it.
      await page.getByRole('button', { name: 'Add page break' }).click();
      await page.getByRole('region', { name: 'Page 2' }).waitFor();
      expect(
        await page
          .getByLabel('Page title')
          .nth(1)
          .evaluate((el) => el === document.activeElement),
      ).toBe(true);
      // Saved as it is, the empty page is refused by the API: said at the page, in words.
      await page.getByRole('button', { name: 'Save fields' }).click();
      await page
        .getByRole('heading', { name: 'One thing to correct: nothing was saved' })
        .waitFor();
      const secondTitle = page.getByRole('region', { name: 'Page 2' }).getByLabel('Page title');
      expect(await secondTitle.getAttribute('aria-invalid')).toBe('true');
      await page
        .getByText('Page 2: a page needs at least one field: add one, or move one to it')
        .waitFor();
      expect((await read()).pages).toBeNull();

      await page.getByRole('button', { name: 'Move down: Email' }).click();
      const first = page.getByRole('region', { name: /^Page 1/ });
      await first.getByLabel('Page title').fill('Your plan');
      await page.getByRole('region', { name: 'Page 2' }).getByLabel('Page title').fill('Contact');
      // A jump from page 1: Plan is Free → the end.
      await first
        .getByRole('button', { name: 'Then go to…: a jump from Page 1: Your plan' })
        .click();
      const jump = first.getByRole('group', { name: 'Jump 1' });
      await jump.getByLabel('Field').selectOption({ label: 'Plan' });
      await jump.getByLabel('Test').selectOption({ label: 'is one of' });
      // The values are the field's options, ticked.
      await jump.getByRole('group', { name: 'Values' }).getByLabel('Free').check();
      await jump.getByLabel('Then go to').selectOption({ label: 'The end: send the form' });

      // A rule that reads a later field is refused at its menu, with the field's label.
      await page.getByRole('button', { name: 'Move up: Seats' }).click();
      await page.getByRole('button', { name: 'Save fields' }).click();
      await page.getByRole('heading', { name: /things? to correct/ }).waitFor();
      const moved = page.getByRole('group', { name: 'Field 1: Seats' });
      const refused = moved.getByRole('group', { name: 'Show only if' }).getByLabel('Field');
      expect(await refused.getAttribute('aria-invalid')).toBe('true');
      await moved.getByText(/^Names field “Plan”, which comes after it/).waitFor();
      await page.getByRole('button', { name: 'Move down: Seats' }).click();

      // A hidden field (added last, so on the last page) and Email filled from the address.
      await page.getByRole('button', { name: 'Add a field' }).click();
      const added = page.getByRole('group', { name: /^Field 4/ });
      await added.getByLabel('Label', { exact: true }).fill('Campaign');
      await added.getByLabel('Type').selectOption({ label: 'Hidden' });
      await added.getByText('Never shown: filled from the page address (?campaign=…)').waitFor();
      expect(await added.getByLabel('Can be filled from the page address').count()).toBe(0);
      await page.getByRole('button', { name: /^Field 3: Email/ }).click();
      await page
        .getByRole('group', { name: 'Field 3: Email' })
        .getByLabel('Can be filled from the page address')
        .check();

      await page.getByRole('button', { name: 'Save fields' }).click();
      await page.getByText('Fields saved.').waitFor();
      const saved = await read();
      expect(saved.fields[1]?.showIf).toEqual(when('plan', 'eq', 'Team'));
      expect(saved.fields.slice(2)).toEqual([
        { id: 'email', type: 'email', label: 'Email', prefill: true },
        { id: 'campaign', type: 'hidden', label: 'Campaign' },
      ]);
      expect(saved.pages).toEqual([
        {
          id: 'page-1',
          title: 'Your plan',
          fields: ['plan', 'seats'],
          next: [{ if: when('plan', 'in', ['Free']), goTo: 'end' }],
        },
        { id: 'page-2', title: 'Contact', fields: ['email', 'campaign'] },
      ]);

      // Try the form: Team shows Seats and goes on to Contact; Free hides it and ends.
      const preview = page.getByRole('region', { name: 'Try the form' });
      await preview.getByRole('button', { name: 'Try the form' }).click();
      await preview.getByRole('heading', { name: 'Step 1 of 2: Your plan' }).waitFor();
      expect(await preview.getByLabel(/^Seats/).count()).toBe(0);
      await preview.getByLabel('Plan (required)').selectOption('Team');
      await preview.getByLabel('Seats (required)').fill('12');
      await expectAccessible(page, 'Try the form');
      await preview.getByRole('button', { name: 'Next' }).click();
      await preview.getByRole('heading', { name: 'Step 2 of 2: Contact' }).waitFor();
      await preview.getByRole('button', { name: 'Back' }).click();
      await preview.getByLabel('Plan (required)').selectOption('Free');
      await preview.getByRole('heading', { name: 'Step 1 of 1: Your plan' }).waitFor();
      expect(await preview.getByLabel(/^Seats/).count()).toBe(0);
      await preview.getByRole('button', { name: 'Send' }).click();
      await preview.getByText('Sent from Page 1: Your plan.').waitFor();
      await preview.getByText('Plan: Free').waitFor();
      await preview.getByText(/Left out, .*: Seats\./).waitFor();
      await page.screenshot({
        path: new URL('dashboard-logic-1280.png', OUTPUT_DIR).pathname,
        fullPage: true,
      });
      // The one refused save (the empty page) is the only error the page logged.
      expect(dashboard.errors).toEqual([
        'Failed to load resource: the server responded with a status of 400 (Bad Request)',
      ]);
    } finally {
      await dashboard.close();
    }
  });

  it('at 375 px in dark mode: pages, rules and the preview fit and stay axe-clean', async () => {
    const { owner, formId } = await formWith({ fields: LOGIC.fields, pages: LOGIC.pages });
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/fields`,
      width: 375,
      dark: true,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Fields of Signup' }).waitFor();
      await page.getByRole('button', { name: /^Field 2: Seats/ }).click();
      await page.getByRole('group', { name: 'Show only if' }).waitFor();
      const preview = page.getByRole('region', { name: 'Try the form' });
      await preview.getByRole('button', { name: 'Try the form' }).click();
      await preview.getByLabel('Plan (required)').selectOption('Team');
      await expectAccessible(page, 'logic at 375 px, dark');
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
      await page.screenshot({
        path: new URL('dashboard-logic-375-dark.png', OUTPUT_DIR).pathname,
        fullPage: true,
      });
      // Parts at their own size, to look at closely.
      await page.getByRole('region', { name: 'Page 1: Your plan' }).screenshot({
        path: new URL('dashboard-logic-375-dark-page.png', OUTPUT_DIR).pathname,
      });
      await page.getByRole('group', { name: 'Field 2: Seats' }).screenshot({
        path: new URL('dashboard-logic-375-dark-rule.png', OUTPUT_DIR).pathname,
      });
      await preview.screenshot({
        path: new URL('dashboard-logic-375-dark-try.png', OUTPUT_DIR).pathname,
      });
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('the Emails preview says where a notification would go for the answers tried (routing by answer)', async () => {
    const { owner, formId } = await formWith(LOGIC);
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/emails`,
    });
    const { page } = dashboard;
    try {
      const routing = page.getByRole('region', { name: 'Routing by answer' });
      await routing.getByText('When “Plan” is “Team”: sales@example.com').waitFor();
      // The sample answers take the first option: no rule holds.
      await routing.getByText(`No rule holds: this answer would go to ${owner.email}.`).waitFor();
      await routing.getByLabel('Plan').selectOption('Team');
      await routing
        .getByRole('status')
        .filter({ hasText: 'This answer would go to sales@example.com.' })
        .waitFor();
      // The notification above is made for that answer: its To is the rule's address.
      const notification = page.getByRole('region', { name: 'Notification to you' });
      const to = notification.locator('xpath=.//dt[.="To"]/following-sibling::dd');
      await expect.poll(() => to.textContent()).toBe('sales@example.com');
      await expectAccessible(page, 'routing by answer on the Emails screen');
      await notification.screenshot({
        path: new URL('dashboard-logic-routing.png', OUTPUT_DIR).pathname,
      });
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
