import type { Download, Locator, Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { asMember, cookieOf, invitationTo, teamWithOwner, verify } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible, openDashboard } from '#test/support/dashboard.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();
const unique = () => crypto.randomUUID().slice(0, 8);

type Owner = Awaited<ReturnType<typeof teamWithOwner>>;

async function newForm(owner: Owner, name: string, settings: Record<string, unknown> = {}) {
  const created = await api('POST', '/v1/forms', { key: owner.apiKey, body: { name } });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  if (Object.keys(settings).length > 0) {
    const patched = await api('PATCH', `/v1/forms/${id}`, { key: owner.apiKey, body: settings });
    expect(patched.status, patched.text).toBe(200);
  }
  return { id, key: created.body.key as string };
}

async function post(formKey: string, answers: Record<string, string>): Promise<string> {
  const response = await submit(formKey, { json: answers, from: freshVisitor() });
  expect(response.status, response.text).toBe(200);
  return response.body?.submissionId as string;
}

/**
 * A team whose two forms hold one person's address: twice in Contact's email
 * field, once as Waitlist's `_replyto`; and a submission of someone else in each.
 */
async function seeded() {
  const owner = await teamWithOwner('pro');
  const person = `ada-${unique()}@example.com`;
  const contact = await newForm(owner, 'Contact', {
    fields: [
      { id: 'email', type: 'email', label: 'Email' },
      { id: 'message', type: 'textarea', label: 'Message' },
    ],
  });
  const waitlist = await newForm(owner, 'Waitlist');
  const theirs = [
    await post(contact.key, { email: person, message: 'first' }),
    await post(contact.key, { email: person.toUpperCase(), message: 'second' }),
    await post(waitlist.key, { _replyto: person, name: 'Ada' }),
  ];
  const others = [
    await post(contact.key, { email: `bo-${unique()}@example.com`, message: 'not hers' }),
    await post(waitlist.key, { _replyto: `cy-${unique()}@example.com`, name: 'Cy' }),
  ];
  return { owner, person, contact, waitlist, theirs, others };
}

const listedIds = async (owner: Owner, formId: string) =>
  (
    await api<{ items: { id: string }[] }>('GET', `/v1/forms/${formId}/submissions?pageSize=100`, {
      key: owner.apiKey,
    })
  ).body.items.map((item) => item.id);

const textOf = async (download: Download) =>
  new Response((await download.createReadStream()) as unknown as ReadableStream).text();

const today = () => new Date().toISOString().slice(0, 10);

/** Presses Tab until `target` has the focus: the keyboard's way to a control. */
async function tabTo(page: Page, target: Locator) {
  for (let presses = 0; presses < 40; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the control');
}

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '');

describe('the team Privacy screen (docs/dashboard.md#the-privacy-screen)', () => {
  it('an owner finds an address in two forms, sees the counts, downloads the export, erases after the question: counts 0, gone from the inboxes', async () => {
    const world = await seeded();
    const dashboard = await dashboardAs(chromium(), world.owner.email);
    const { page } = dashboard;
    try {
      // Reached from the team area's navigation.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Team' })
        .click();
      await page
        .getByRole('navigation', { name: 'Team' })
        .getByRole('link', { name: 'Privacy' })
        .click();
      await page.getByRole('heading', { name: 'Privacy', level: 1 }).waitFor();
      expect(
        await page
          .getByRole('navigation', { name: 'Team' })
          .getByRole('link', { name: 'Privacy' })
          .getAttribute('aria-current'),
      ).toBe('page');

      await page.getByLabel('Their email address').fill(world.person);
      await page.getByRole('button', { name: 'Find their submissions' }).click();
      const found = page.getByRole('region', { name: `Submissions holding ${world.person}` });
      await found.getByText(`3 submissions in 2 forms hold ${world.person}.`).waitFor();
      const count = (form: string) =>
        found.getByRole('row', { name: new RegExp(`^${form}`) }).getByRole('cell');
      expect(await count('Contact').textContent()).toBe('2');
      expect(await count('Waitlist').textContent()).toBe('1');
      await expectAccessible(page, 'privacy, found');

      // The download is the export document, named for whose submissions it holds.
      const downloading = page.waitForEvent('download');
      await found.getByRole('link', { name: 'Download them (JSON)' }).click();
      const file = await downloading;
      expect(file.suggestedFilename()).toBe(`submissions-of-${world.person}-${today()}.json`);
      const downloaded = JSON.parse(await textOf(file)) as {
        submissions: { id: string; formName: string }[];
      };
      expect(downloaded.submissions.map((s) => s.id).sort()).toEqual([...world.theirs].sort());
      const exported = await api(
        'GET',
        `/v1/privacy/submissions?email=${encodeURIComponent(world.person)}`,
        { key: world.owner.apiKey },
      );
      expect(downloaded).toEqual(exported.body);
      expect(downloaded.submissions.filter((s) => s.formName === 'Contact')).toHaveLength(2);

      // The question says what an erase reaches and what it does not.
      await found.getByRole('button', { name: 'Erase…' }).click();
      const question = page.getByRole('dialog', {
        name: `Erase every submission holding ${world.person}?`,
      });
      await question
        .getByText('This deletes the 3 submissions in 2 forms that hold the address')
        .waitFor();
      await question.getByText('It does not reach:').waitFor();
      await question.getByText(/what a webhook or another connected service received/).waitFor();
      await question.getByText(/backups, until they age out after 35 days/).waitFor();
      await expectAccessible(page, 'privacy, the erase question');
      await question.getByRole('button', { name: 'Erase', exact: true }).click();

      await page.getByText('Erased 3 submissions: 2 in Contact, 1 in Waitlist.').waitFor();
      await found.getByText(`No submission of the team's forms holds ${world.person}.`).waitFor();
      expect(await found.getByRole('row').count()).toBe(0);
      expect(await found.getByRole('button', { name: 'Erase…' }).count()).toBe(0);

      // Gone from the inboxes; the others stay.
      expect(await listedIds(world.owner, world.contact.id)).toEqual([world.others[0]]);
      expect(await listedIds(world.owner, world.waitlist.id)).toEqual([world.others[1]]);
      // Found again: nothing.
      await page.getByRole('button', { name: 'Find their submissions' }).click();
      await found.getByText(`No submission of the team's forms holds ${world.person}.`).waitFor();
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('the erase by keyboard alone: the address, Enter, Tab to Erase, the question, Erase; the focus lands on what the screen says', async () => {
    const world = await seeded();
    const dashboard = await dashboardAs(chromium(), world.owner.email, { path: '/team/privacy' });
    const { page } = dashboard;
    try {
      const field = page.getByLabel('Their email address');
      await field.waitFor();
      await tabTo(page, field);
      await page.keyboard.type(world.person);
      await page.keyboard.press('Enter');
      await page.getByText(`3 submissions in 2 forms hold ${world.person}.`).waitFor();
      await tabTo(page, page.getByRole('button', { name: 'Erase…' }));
      await page.keyboard.press('Enter');
      const question = page.getByRole('dialog', {
        name: `Erase every submission holding ${world.person}?`,
      });
      await question.waitFor();
      // The dialog takes the focus; Tab moves from Cancel to Erase.
      await expect.poll(() => focusedText(page)).toBe('Cancel');
      await page.keyboard.press('Tab');
      await expect.poll(() => focusedText(page)).toBe('Erase');
      await page.keyboard.press('Enter');
      await page.getByText('Erased 3 submissions: 2 in Contact, 1 in Waitlist.').waitFor();
      await expect.poll(() => focusedText(page)).toBe(`Submissions holding ${world.person}`);
      expect(await listedIds(world.owner, world.contact.id)).toEqual([world.others[0]]);
    } finally {
      await dashboard.close();
    }
  });

  it('an export cut short and 503 incomplete in words (both injected with page.route: the stack cuts a document only past 190 MB or on a failure); Erase again finishes', async () => {
    const world = await seeded();
    const dashboard = await dashboardAs(chromium(), world.owner.email, { path: '/team/privacy' });
    const { page } = dashboard;
    const refusal = (status: number, error: string, message: string) => ({
      status,
      json: { ok: false, error, message },
    });
    try {
      // A streamed document that stopped before its closing `]}`, as a failure leaves it.
      await page.route('**/v1/privacy/submissions?*', (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: `{"submissions":[{"formId":"${world.contact.id}","id":"x","data":{"email":"`,
        }),
      );
      await page.getByLabel('Their email address').fill(world.person);
      await page.getByRole('button', { name: 'Find their submissions' }).click();
      const found = page.getByRole('region', { name: `Submissions holding ${world.person}` });
      await found
        .getByRole('alert')
        .getByText(/could not be read whole: the export stopped before its end/)
        .waitFor();
      expect(await found.getByRole('alert').textContent()).toMatch(/Export CSV/);
      expect(await found.getByRole('link', { name: 'Download them (JSON)' }).count()).toBe(0);

      // Erase still reaches them all; cut short once, it says to press again.
      let cut = 0;
      await page.route('**/v1/privacy/erasures', (route) => {
        cut++;
        return route.fulfill(
          refusal(503, 'incomplete', 'Erased 0 submissions before the time limit'),
        );
      });
      await found.getByRole('button', { name: 'Erase…' }).click();
      const question = page.getByRole('dialog', {
        name: `Erase every submission holding ${world.person}?`,
      });
      await question
        .getByText("This deletes every submission of the team's forms that holds the address")
        .waitFor();
      await question.getByRole('button', { name: 'Erase', exact: true }).click();
      await page
        .getByRole('alert')
        .getByText(/press Erase again to finish/)
        .waitFor();
      expect(cut).toBe(1);
      await page.unroute('**/v1/privacy/erasures');
      await found.getByRole('button', { name: 'Erase…' }).click();
      await question.getByRole('button', { name: 'Erase', exact: true }).click();
      await page.getByText('Erased 3 submissions: 2 in Contact, 1 in Waitlist.').waitFor();
      expect(await page.getByText(/press Erase again/).count()).toBe(0);
      expect(await listedIds(world.owner, world.waitlist.id)).toEqual([world.others[1]]);
    } finally {
      await dashboard.close();
    }
  });

  it('a member reads that the screen is for owners, with no way to erase; the API refuses them 403', async () => {
    const world = await seeded();
    const memberEmail = `member-${unique()}@example.com`;
    const invited = await api('POST', '/v1/team/members', {
      key: world.owner.apiKey,
      body: { email: memberEmail, role: 'member' },
    });
    expect(invited.status, invited.text).toBe(201);
    // The invitation's link signs the new member in (docs/people.md#invitations).
    const { token } = await invitationTo(memberEmail);
    const cookie = cookieOf(await verify({ token }));
    const dashboard = await openDashboard(chromium(), { path: '/team', cookie });
    const { page } = dashboard;
    try {
      await page
        .getByRole('navigation', { name: 'Team' })
        .getByRole('link', { name: 'Privacy' })
        .click();
      await page
        .getByText("Only the team's owners find, download and erase a person's submissions")
        .waitFor();
      expect(await page.getByLabel('Their email address').count()).toBe(0);
      expect(await page.getByRole('button', { name: /Erase/ }).count()).toBe(0);
      expect(await page.getByRole('radio').count()).toBe(0);
      await expectAccessible(page, 'privacy, a member');
    } finally {
      await dashboard.close();
    }
    const refused = await asMember(cookie, 'POST', '/v1/privacy/erasures', {
      body: { email: world.person },
    });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body).toMatchObject({ error: 'owner_only' });
    expect(await listedIds(world.owner, world.contact.id)).toHaveLength(3);
  });

  it("the senders' internet addresses: each choice says what it means; saving changes the team's ipStorage", async () => {
    const owner = await teamWithOwner('pro');
    const dashboard = await dashboardAs(chromium(), owner.email, { path: '/team/privacy' });
    const { page } = dashboard;
    try {
      const section = page.getByRole('region', { name: "Senders' internet addresses" });
      const address = section.getByRole('radio', { name: 'The address itself' });
      const coded = section.getByRole('radio', { name: 'A coded stand-in for the address' });
      await address.waitFor();
      expect(await address.isChecked()).toBe(true);
      expect(await section.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
      await section.getByText('nobody can read the address back from it').waitFor();
      await section.getByText("keep the sender's internet address as it reached").waitFor();
      await coded.check();
      await section.getByRole('button', { name: 'Save' }).click();
      await section
        .getByText('Saved: from the next submission, a coded stand-in for the address is kept.')
        .waitFor();
      expect((await api('GET', '/v1/team', { key: owner.apiKey })).body.ipStorage).toBe(
        'keyedHash',
      );
      await page.reload();
      await coded.waitFor();
      expect(await coded.isChecked()).toBe(true);
      await address.check();
      await section.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(async () => (await api('GET', '/v1/team', { key: owner.apiKey })).body.ipStorage)
        .toBe('address');
    } finally {
      await dashboard.close();
    }
  });
});
