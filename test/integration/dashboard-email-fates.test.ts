import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { asMember, cookieOf, invitationTo, teamWithOwner, verify } from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible, openDashboard } from '#test/support/dashboard.ts';
import { DELIVERY_WAIT_MS } from '#test/support/delivery.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import { seedSuppressions } from '#test/support/suppressions.ts';

// Events reach the email log within moments, but the run's queues are shared under the full suite.
vi.setConfig({ testTimeout: 180_000 });

/**
 * Issue 33, item 5, on the dashboard: what became of a submission's emails
 * on its page, and the team's suppression list on the Privacy screen
 * (docs/dashboard.md#a-submission, docs/dashboard.md#the-privacy-screen),
 * through the local stack's mailbox simulator (docs/delivery.md#testing-bounces-and-complaints-locally).
 * Notifications, not auto-replies: auto-replies to one mailbox are limited to
 * 3 an hour across the deployment, +labels folded.
 */

const chromium = chromiumForFile();
const unique = () => crypto.randomUUID().slice(0, 8);
const bouncing = () => `bounce+${unique()}@simulator.amazonses.com`;

type Owner = Awaited<ReturnType<typeof teamWithOwner>>;

/** A Pro team whose form notifies `notifyEmail` (and `notifyCc`). */
async function formNotifying(notifyEmail: string, owner?: Owner, notifyCc?: string[]) {
  const team = owner ?? (await teamWithOwner('pro'));
  const created = await api('POST', '/v1/forms', { key: team.apiKey, body: { name: 'Contact' } });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  const patched = await api('PATCH', `/v1/forms/${id}`, {
    key: team.apiKey,
    body: { notifyEmail, ...(notifyCc ? { notifyCc } : {}) },
  });
  expect(patched.status, patched.text).toBe(200);
  return { owner: team, id, key: created.body.key as string };
}

async function post(formKey: string): Promise<string> {
  const response = await submit(formKey, {
    // A message of its own: the same answers twice would be spam (the duplicate rule).
    json: { name: 'Ada', message: `Hello ${unique()}` },
    from: freshVisitor(),
  });
  expect(response.status, response.text).toBe(200);
  return response.body?.submissionId as string;
}

const suppressed = async (owner: Owner) =>
  (
    await api<{ suppressions: { email: string }[] }>('GET', '/v1/team/suppressions?limit=100', {
      key: owner.apiKey,
    })
  ).body.suppressions.map((entry) => entry.email);

/** A team whose form's notification address bounced and is now on its list. */
async function bouncedTeam() {
  const address = bouncing();
  const form = await formNotifying(address);
  const submissionId = await post(form.key);
  await expect.poll(() => suppressed(form.owner), { timeout: DELIVERY_WAIT_MS }).toEqual([address]);
  return { ...form, address, submissionId };
}

/** The Emails section's text, pressing "Check again" while it is offered (the page's own polling). */
async function emailsText(page: Page): Promise<string> {
  const section = page.getByRole('region', { name: 'Emails' });
  if ((await section.count()) === 0) return '';
  const again = section.getByRole('button', { name: 'Check again' });
  if (await again.isVisible()) {
    await again.click();
    await expect.poll(() => again.isDisabled()).toBe(false);
  }
  return (await section.textContent()) ?? '';
}

/** Presses Tab until `target` has the focus: the keyboard's way to a control. */
async function tabTo(page: Page, target: Locator) {
  for (let presses = 0; presses < 60; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the control');
}

const listRegion = (page: Page) =>
  page.getByRole('region', { name: 'Addresses the forms no longer email' });

describe('what became of the emails, on the dashboard', () => {
  it('a bounced notification reads bounced in words on its submission; the next is not sent; the Privacy screen lists the address, links its submission, and lifts it after the question', async () => {
    const address = bouncing();
    const form = await formNotifying(address);
    const first = await post(form.key);
    const dashboard = await dashboardAs(chromium(), form.owner.email, {
      path: `/forms/${form.id}/submissions/${first}`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Emails', level: 2 }).waitFor();
      await expect
        .poll(() => emailsText(page), { timeout: DELIVERY_WAIT_MS })
        .toContain(
          "Notification to the team: Bounced — the address does not exist, so no more emails go to it from this team's forms",
        );
      // No auto-reply was due (none is set up): it has no line. The address is not the API's to say.
      const said = await emailsText(page);
      expect(said).not.toContain('Auto-reply');
      expect(said).not.toContain(address);
      expect(said).not.toMatch(/Permanent|bounceType|status/);
      await expectAccessible(page, 'submission, a bounced notification');

      // The next post's notification is not sent: the address is on the list.
      await expect
        .poll(() => suppressed(form.owner), { timeout: DELIVERY_WAIT_MS })
        .toEqual([address]);
      const second = await post(form.key);
      await page.goto(page.url().replace(first, second));
      await expect
        .poll(() => emailsText(page), { timeout: DELIVERY_WAIT_MS })
        .toContain(
          "Notification to the team: Not sent: this address is on the team's suppression list (it bounced or complained before)",
        );
      await page
        .getByRole('link', { name: "See the addresses the team's forms no longer email" })
        .click();

      // The list: the address, why, when, and the submission whose email bounced.
      const list = listRegion(page);
      const row = list.getByRole('row', {
        name: new RegExp(`^${address.replace(/[.+]/g, '\\$&')}`),
      });
      await row.waitFor();
      await row.getByText('Bounced: the address does not exist').waitFor();
      expect(await row.locator('time').count()).toBe(1);
      expect(await row.getByRole('link', { name: 'The submission' }).getAttribute('href')).toBe(
        `/app/forms/${form.id}/submissions/${first}`,
      );
      await expectAccessible(page, 'privacy, the suppression list');

      // Asked first, saying what it means; Cancel changes nothing.
      await row.getByRole('button', { name: 'Let emails go to it again' }).click();
      const question = page.getByRole('dialog', { name: `Let emails go to ${address} again?` });
      await question
        .getByText(
          "The team's forms will send their notifications and auto-replies to this address again.",
        )
        .waitFor();
      await expectAccessible(page, 'privacy, the lift question');
      await question.getByRole('button', { name: 'Cancel' }).click();
      expect(await suppressed(form.owner)).toEqual([address]);

      await row.getByRole('button', { name: 'Let emails go to it again' }).click();
      await question.getByRole('button', { name: 'Let emails go to it again' }).click();
      await list.getByText(`${address} gets emails from the team's forms again.`).waitFor();
      await list
        .getByText("No address is held back: the team's forms email every address they are given.")
        .waitFor();
      expect(await list.getByRole('row').count()).toBe(0);
      expect(await suppressed(form.owner)).toEqual([]);
      await page.reload();
      await listRegion(page).getByText('No address is held back').waitFor();
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a notification delivered to its To says delivered, and names the Cc that bounced in words; axe-clean', async () => {
    const to = `success+${unique()}@simulator.amazonses.com`;
    const cc = bouncing();
    const form = await formNotifying(to, undefined, [cc]);
    const submissionId = await post(form.key);
    const dashboard = await dashboardAs(chromium(), form.owner.email, {
      path: `/forms/${form.id}/submissions/${submissionId}`,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Emails', level: 2 }).waitFor();
      await expect
        .poll(() => emailsText(page), { timeout: DELIVERY_WAIT_MS })
        .toContain(`Not delivered to ${cc} (the address does not exist)`);
      const said = await emailsText(page);
      expect(said).toContain('Notification to the team: Delivered (');
      expect(said).not.toContain('Bounced —');
      // The To is fine: its address is not repeated.
      expect(said).not.toContain(to);
      expect(said).not.toMatch(/Permanent|bounceType|status/);
      await page
        .getByRole('region', { name: 'Emails' })
        .getByRole('listitem')
        .filter({ hasText: `Not delivered to ${cc}` })
        .last()
        .waitFor();
      await expectAccessible(page, 'submission, a Cc that bounced');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('lifts an address by keyboard alone: Tab to it, Enter, Tab to the answer, Enter; the focus lands on the list’s heading', async () => {
    const team = await bouncedTeam();
    const dashboard = await dashboardAs(chromium(), team.owner.email, { path: '/team/privacy' });
    const { page } = dashboard;
    try {
      const lift = listRegion(page).getByRole('button', { name: 'Let emails go to it again' });
      await lift.waitFor();
      await tabTo(page, lift);
      await page.keyboard.press('Enter');
      const question = page.getByRole('dialog', {
        name: `Let emails go to ${team.address} again?`,
      });
      await question.waitFor();
      await tabTo(page, question.getByRole('button', { name: 'Let emails go to it again' }));
      await page.keyboard.press('Enter');
      await listRegion(page).getByText('No address is held back').waitFor();
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
        'Addresses the forms no longer email',
      );
      expect(await suppressed(team.owner)).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a list longer than a page shows 50 addresses, and "More addresses" the rest; a lift from the second page works', async () => {
    const owner = await teamWithOwner('pro');
    const addresses = await seedSuppressions(owner.teamId, 55);
    const dashboard = await dashboardAs(chromium(), owner.email, { path: '/team/privacy' });
    const { page } = dashboard;
    try {
      const list = listRegion(page);
      const rows = list.getByRole('row');
      await list.getByRole('row', { name: new RegExp(`^${addresses[49]}`) }).waitFor();
      // The header row and the first page's 50.
      expect(await rows.count()).toBe(51);
      expect(await list.getByText(addresses[50]!).count()).toBe(0);
      await list.getByRole('button', { name: 'More addresses' }).click();
      await list.getByRole('row', { name: new RegExp(`^${addresses[54]}`) }).waitFor();
      expect(await rows.count()).toBe(56);
      expect(await list.getByRole('button', { name: 'More addresses' }).count()).toBe(0);
      await expectAccessible(page, 'privacy, the list past its first page');

      const last = list.getByRole('row', { name: new RegExp(`^${addresses[54]}`) });
      await last.getByRole('button', { name: 'Let emails go to it again' }).click();
      await page
        .getByRole('dialog', { name: `Let emails go to ${addresses[54]} again?` })
        .getByRole('button', { name: 'Let emails go to it again' })
        .click();
      await list.getByText(`${addresses[54]} gets emails from the team's forms again.`).waitFor();
      expect(await rows.count()).toBe(55);
      expect(await suppressed(owner)).toEqual(addresses.slice(0, 54));
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a member reads that the list is the owners’, with nothing to lift; the API refuses them 403', async () => {
    const team = await bouncedTeam();
    const memberEmail = `member-${unique()}@example.com`;
    const invited = await api('POST', '/v1/team/members', {
      key: team.owner.apiKey,
      body: { email: memberEmail, role: 'member' },
    });
    expect(invited.status, invited.text).toBe(201);
    const { token } = await invitationTo(memberEmail);
    const cookie = cookieOf(await verify({ token }));
    const dashboard = await openDashboard(chromium(), { path: '/team/privacy', cookie });
    const { page } = dashboard;
    try {
      await page.getByText("and see the addresses the team's forms no longer email.").waitFor();
      expect(await page.getByText(team.address).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Let emails go to it again' }).count()).toBe(0);
      // Their submission page says what became of its emails, without the owners' link.
      await page.goto(
        page.url().replace('/team/privacy', `/forms/${team.id}/submissions/${team.submissionId}`),
      );
      await expect
        .poll(() => emailsText(page), { timeout: DELIVERY_WAIT_MS })
        .toContain('Notification to the team: Bounced — the address does not exist');
    } finally {
      await dashboard.close();
    }
    const refused = await asMember(cookie, 'GET', '/v1/team/suppressions');
    expect(refused.status, refused.text).toBe(403);
    expect(await suppressed(team.owner)).toEqual([team.address]);
  });
});

describe('a team whose emails SES paused (docs/delivery.md#one-team-cannot-pause-everyones-mail)', () => {
  it('the team screen says so in words, with what waits and what to check; axe-clean', async () => {
    const owner = await teamWithOwner('pro');
    const since = new Date(Date.now() - 3_600_000).toISOString();
    // As the email worker records it when SES refuses the team's tenant (email-tenants.test.ts).
    const { documents } = await localStore();
    await documents.send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { pk: `TEAM#${owner.teamId}`, sk: 'TEAM' },
        UpdateExpression: 'SET emailPausedAt = :at',
        ExpressionAttributeValues: { ':at': since },
      }),
    );
    expect((await api('GET', '/v1/team', { key: owner.apiKey })).body.emailPausedAt).toBe(since);
    const dashboard = await dashboardAs(chromium(), owner.email, { path: '/team' });
    try {
      const notice = dashboard.page.getByRole('status').filter({ hasText: 'paused' });
      await notice.waitFor();
      expect(await notice.textContent()).toMatch(
        /paused this team's emails since .*bounced or were marked as spam.*submissions are still stored/s,
      );
      expect(await notice.locator('time').getAttribute('datetime')).toBe(since);
      await expectAccessible(dashboard.page, 'team screen, emails paused');
    } finally {
      await dashboard.close();
    }
  });
});
