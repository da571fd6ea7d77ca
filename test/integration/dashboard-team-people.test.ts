import { describe, expect, it, vi } from 'vitest';
import { invitationsTo, teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import {
  dashboardAs,
  expectAccessible,
  openDashboard,
  signInThroughPage,
} from '#test/support/dashboard.ts';
import { eventually } from '#test/support/delivery.ts';

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();

const FIREFOX_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

/** docs/dashboard.md#the-team-screen */
describe('the team screen in words for people', () => {
  it('names sessions by browser and system, this one as This device, never a raw user agent', async () => {
    const owner = await teamWithOwner('pro');
    const firefox = await openDashboard(chromium(), { userAgent: FIREFOX_ON_WINDOWS });
    const here = await openDashboard(chromium(), { path: '/team' });
    try {
      await signInThroughPage(firefox.page, owner.email);
      await firefox.page.getByRole('heading', { name: 'Forms' }).waitFor();
      await signInThroughPage(here.page, owner.email);
      const sessions = here.page.getByRole('region', { name: 'Your sessions' });
      // Headless Chromium on this machine says it is Chrome on Linux.
      await sessions.getByText('This device: Chrome on Linux').waitFor();
      await sessions.getByText('Firefox on Windows').waitFor();
      expect(await sessions.getByText(/Mozilla\/5\.0|Gecko|KHTML/).count()).toBe(0);
      expect(here.errors).toEqual([]);
    } finally {
      await firefox.close();
      await here.close();
    }
  });

  it('counts pending invitations and sends one again into the inbox; the sole owner has no Remove; the audit trail reads as sentences', async () => {
    const owner = await teamWithOwner('pro');
    const contact = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Contact' },
    });
    expect(contact.status).toBe(201);
    const formId = (contact.body as { id: string }).id;
    expect(
      (await api('POST', `/v1/forms/${formId}/rotate-key`, { key: owner.apiKey })).status,
    ).toBe(200);
    const dashboard = await dashboardAs(chromium(), owner.email, { path: '/team' });
    const { page } = dashboard;
    const tag = crypto.randomUUID().slice(0, 8);
    const ana = `ana-${tag}@example.com`;
    const bo = `bo-${tag}@example.com`;
    try {
      const members = page.getByRole('region', { name: 'Members' });
      await members.getByRole('rowheader', { name: `${owner.email} (you)` }).waitFor();
      // The only owner: no Remove, no role to change, and why.
      expect(await members.getByRole('button', { name: `Remove ${owner.email}` }).count()).toBe(0);
      expect(await members.getByLabel(`Role of ${owner.email}`).count()).toBe(0);
      await members.getByText("You are the team's only owner").waitFor();

      for (const email of [ana, bo]) {
        await page.getByLabel('Email of the person to invite').fill(email);
        await page.getByRole('button', { name: 'Invite' }).click();
        await members.getByRole('rowheader', { name: email }).waitFor();
      }
      await page.getByText('Pro plan · 3 members · 2 invites pending · 1 form').waitFor();
      await expect
        .poll(() => members.getByRole('cell', { name: 'Invited, not signed in yet' }).count())
        .toBe(2);

      const before = await eventually(
        async () => (await invitationsTo(ana)).length,
        (count) => count > 0,
      );
      await members.getByRole('button', { name: `Resend the invitation to ${ana}` }).click();
      await members.getByText(`A new invitation is on its way to ${ana}.`).waitFor();
      expect(
        await eventually(
          async () => (await invitationsTo(ana)).length,
          (count) => count > before,
        ),
      ).toBe(before + 1);

      // A second owner: now the first may step down or be removed.
      await members.getByLabel(`Role of ${ana}`).selectOption('owner');
      await members.getByRole('button', { name: `Remove ${owner.email}` }).waitFor();
      await members.getByLabel(`Role of ${owner.email}`).waitFor();
      expect(await members.getByText("the team's only owner").count()).toBe(0);

      await page.reload();
      const audit = page.getByRole('region', { name: 'Audit trail' });
      for (const sentence of [
        `You invited ${ana} as a member.`,
        `You invited ${bo} as a member.`,
        `You sent ${ana} their invitation again.`,
        `You made ${ana} an owner.`,
      ]) {
        await audit.getByRole('cell', { name: sentence, exact: true }).waitFor();
      }
      await audit
        .getByRole('cell', { name: /^The API key “.+” rotated the form key of Contact\.$/ })
        .waitFor();
      await audit
        .getByRole('cell', { name: /^You signed in with an emailed code\.$/ })
        .first()
        .waitFor();
      expect(await audit.getByText(/[a-z]+\.[a-z]+_[a-z]+|member\.invited|form\.key/).count()).toBe(
        0,
      );
      await expectAccessible(page, 'team with invitations pending');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
