import { describe, expect, it, vi } from 'vitest';
import { asMember, invitationsTo, signedIn, teamWithOwner } from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { dashboardAs, expectAccessible } from '#test/support/dashboard.ts';
import { eventually } from '#test/support/delivery.ts';

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();

describe('the team screen', () => {
  it('an owner invites a member, makes them an owner, removes them; creates a key shown once that works, revokes it; signs out elsewhere; reads the audit trail', async () => {
    const owner = await teamWithOwner('pro');
    const elsewhere = await signedIn(owner.email);
    const dashboard = await dashboardAs(chromium(), owner.email);
    const { page } = dashboard;
    try {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Team' })
        .click();
      await page.getByRole('heading', { name: `Team Team ${owner.email}` }).waitFor();
      await page.getByRole('rowheader', { name: `${owner.email} (you)` }).waitFor();

      // Invite: a row, and an invitation on its way.
      const invitee = `invitee-${crypto.randomUUID().slice(0, 8)}@example.com`;
      const mailsBefore = (await invitationsTo(invitee)).length;
      await page.getByLabel('Email of the person to invite').fill(invitee);
      await page.getByRole('button', { name: 'Invite' }).click();
      await page.getByRole('rowheader', { name: invitee }).waitFor();
      expect(
        await eventually(
          async () => (await invitationsTo(invitee)).length,
          (n) => n > mailsBefore,
        ),
      ).toBe(mailsBefore + 1);
      await page.getByLabel(`Role of ${invitee}`).selectOption('owner');
      await expect
        .poll(async () => {
          const list = await api('GET', '/v1/team/members', { key: owner.apiKey });
          return (list.body.members as { email: string; role: string }[]).find(
            (m) => m.email === invitee,
          )?.role;
        })
        .toBe('owner');
      await page.getByRole('button', { name: `Remove ${invitee}` }).click();
      const remove = page.getByRole('dialog', { name: `Remove ${invitee}?` });
      await remove.getByRole('button', { name: 'Remove', exact: true }).click();
      await expect.poll(() => page.getByRole('rowheader', { name: invitee }).count()).toBe(0);

      // A key: shown once, works, then revoked and refused.
      await page.getByLabel('Name of the new key').fill('CRM sync');
      await page.getByRole('button', { name: 'Create a key' }).click();
      const key = await page.getByLabel('New key CRM sync', { exact: true }).inputValue();
      expect((await api('GET', '/v1/forms', { key })).status).toBe(200);
      await page.getByRole('button', { name: 'Revoke CRM sync' }).click();
      const revoke = page.getByRole('dialog', { name: 'Revoke CRM sync?' });
      await revoke.getByRole('button', { name: 'Revoke', exact: true }).click();
      await expect.poll(async () => (await api('GET', '/v1/forms', { key })).status).toBe(401);
      await expect
        .poll(() =>
          page
            .getByRole('row', { name: /CRM sync/ })
            .getByRole('cell', { name: 'Revoked' })
            .count(),
        )
        .toBe(1);

      // The session made over the API is another browser: signed out from here.
      expect((await asMember(elsewhere, 'GET', '/v1/auth/session')).status).toBe(200);
      await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
      await expect
        .poll(async () => (await asMember(elsewhere, 'GET', '/v1/auth/session')).status)
        .toBe(401);

      await page.reload();
      const audit = page.getByRole('region', { name: 'Audit trail' });
      await audit
        .getByRole('cell', { name: `You invited ${invitee} as a member.` })
        .first()
        .waitFor();
      for (const what of [
        `You made ${invitee} an owner.`,
        `You removed ${invitee} from the team.`,
        'You created the API key “CRM sync”.',
        'You revoked the API key “CRM sync”.',
      ]) {
        expect(await audit.getByRole('cell', { name: what }).count(), String(what)).toBeGreaterThan(
          0,
        );
      }
      await expectAccessible(page, 'team');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });

  it('a member sees the team and their sessions, not the owners’ tools; 375 px, dark, axe-clean', async () => {
    const owner = await teamWithOwner('pro');
    const email = `member-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const invited = await api('POST', '/v1/team/members', { key: owner.apiKey, body: { email } });
    expect(invited.status).toBe(201);
    // The invitation first, so the queue is past it when the member signs in below.
    await eventually(
      async () => (await invitationsTo(email)).length,
      (count) => count > 0,
    );
    const dashboard = await dashboardAs(chromium(), email, {
      path: '/team',
      width: 375,
      dark: true,
    });
    const { page } = dashboard;
    try {
      await page.getByRole('heading', { name: 'Members' }).waitFor();
      await page.getByText("Only the team's owners see and manage its members").waitFor();
      expect(await page.getByRole('button', { name: 'Invite' }).count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'API keys' }).count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Audit trail' }).count()).toBe(0);
      await page.getByRole('heading', { name: 'Your sessions' }).waitFor();
      await expectAccessible(page, 'team as a member, dark, 375 px');
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
