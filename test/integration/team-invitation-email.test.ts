import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { hashSecret } from '#domain/sign-in.ts';
import { signInTokenKey } from '#store/keys.ts';
import {
  asMember,
  invitationTo,
  requestSignIn,
  signedIn,
  signInEmailsTo,
  verify,
} from '#test/support/accounts.ts';
import { createTeam } from '#test/support/admin.ts';
import { api, stack } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import { localStore } from '#test/support/store.ts';

/**
 * The team invitation is an email of its own (docs/people.md#invitations):
 * who invited you to which team, one link that works for 7 days, no code, and
 * nothing about a sign-in nobody asked for; every name escaped.
 */

vi.setConfig({ testTimeout: 90_000 });

const chromium = chromiumForFile();

const DAY = 86_400_000;

async function hostileTeam() {
  const ownerEmail = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const team = await createTeam({
    name: 'Acme <script>alert(1)</script> & "Sons"',
    ownerEmail,
    plan: 'pro',
  });
  const cookie = await signedIn(ownerEmail);
  const named = await asMember(cookie, 'PATCH', `/v1/team/members/${team.userId}`, {
    body: { name: 'Ada <b>Lovelace</b>' },
  });
  expect(named.status, named.text).toBe(200);
  return { ...team, ownerEmail, cookie };
}

describe('the team invitation', () => {
  it('says who invited you to which team, with a link valid 7 days; escaped; no code; not a sign-in email', async () => {
    const team = await hostileTeam();
    const invitee = `grace-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const invited = await asMember(team.cookie, 'POST', '/v1/team/members', {
      body: { email: invitee },
    });
    expect(invited.status, invited.text).toBe(201);
    const sentAt = Date.now();
    const { token, email } = await invitationTo(invitee);

    expect(email.subject).toBe(
      `Ada <b>Lovelace</b> (${team.ownerEmail}) invited you to the team “Acme <script>alert(1)</script> & "Sons"”`,
    );
    expect(email.from).toContain('Form service');
    const text = email.body.text ?? '';
    expect(text).toContain(`Ada <b>Lovelace</b> (${team.ownerEmail}) invited you to join the team`);
    expect(text).toMatch(/works once, for 7 days \(until \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);
    const html = email.body.html ?? '';
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>Lovelace');
    expect(html).toContain('Ada &lt;b&gt;Lovelace&lt;/b&gt;');
    expect(html).toContain('Acme &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Sons&quot;');
    for (const body of [text, html]) {
      expect(body).not.toMatch(/did not ask to sign in/i);
      expect(body).not.toMatch(/code/i);
    }
    expect(await signInEmailsTo(invitee)).toBe(0);

    // The link's item ends 7 days on.
    const { documents } = await localStore();
    const item = await documents.send(
      new GetCommand({ TableName: stack().tableName, Key: signInTokenKey(hashSecret(token)) }),
    );
    const endsAt = Number(item.Item?.endsAt);
    expect(endsAt - sentAt).toBeGreaterThan(7 * DAY - 60_000);
    expect(endsAt - sentAt).toBeLessThan(7 * DAY + 60_000);

    // The link signs the invitee in, once; then the invitation is accepted.
    const signedInByLink = await verify({ token });
    expect(signedInByLink.status, signedInByLink.text).toBe(200);
    expect((await verify({ token })).status).toBe(401);
    const members = await api('GET', '/v1/team/members', { key: team.apiKey });
    const member = (members.body.members as { email: string; lastSignInAt: string | null }[]).find(
      (m) => m.email === invitee,
    );
    expect(member?.lastSignInAt).not.toBeNull();
  });

  it('an invitation by an operator’s key names no one, and reads as the team’s', async () => {
    const team = await hostileTeam();
    const invitee = `bo-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const invited = await api('POST', '/v1/team/members', {
      key: team.apiKey,
      body: { email: invitee },
    });
    expect(invited.status, invited.text).toBe(201);
    const { email } = await invitationTo(invitee);
    expect(email.subject).toMatch(/^An owner of the team invited you to the team “Acme/);
  });
  it('leaves the address’s pending sign-in code working: an invitation carries none to replace it', async () => {
    const team = await hostileTeam();
    const invitee = `di-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createTeam({ name: 'Elsewhere', ownerEmail: invitee, plan: 'free' });
    const { code } = await requestSignIn(invitee);
    const invited = await asMember(team.cookie, 'POST', '/v1/team/members', {
      body: { email: invitee },
    });
    expect(invited.status, invited.text).toBe(201);
    await invitationTo(invitee);
    const byCode = await verify({ email: invitee, code });
    expect(byCode.status, byCode.text).toBe(200);
  });
});

describe('accepting an invitation from the inbox', () => {
  it('followed signed out from the local inbox, its link signs the invitee in to the team that invited them, once', async () => {
    const team = await hostileTeam();
    // The invitee already works in another team and signed in there last: a
    // link naming no team would open that one.
    const invitee = `cy-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createTeam({ name: 'Elsewhere', ownerEmail: invitee, plan: 'free' });
    await signedIn(invitee);
    // The emulator's store times are whole seconds; a second of margin.
    const invitedAt = Math.floor(Date.now() / 1000) - 1;
    const invited = await asMember(team.cookie, 'POST', '/v1/team/members', {
      body: { email: invitee },
    });
    expect(invited.status, invited.text).toBe(201);
    await invitationTo(invitee);

    // The invitee reads the email in the SES emulator's inbox and opens its
    // link in a new tab, as a mail client does: no session with the service.
    const context = await chromium().newContext();
    try {
      const inbox = await context.newPage();
      // The inbox page draws every mail of the store on its first read, each with a frame:
      // thousands by this point of a full run, which took over 30 s under its load. Its first
      // read asks for the mail since the invitation, as the page's own later reads ask since
      // the newest it has.
      let narrowed = 0;
      await inbox.route(/\/store\?since=0$/, (route) => {
        narrowed += 1;
        return route.continue({
          url: route
            .request()
            .url()
            .replace(/since=0$/, `since=${invitedAt}`),
        });
      });
      await inbox.goto(stack().mailUrl);
      const mail = inbox
        .locator('.email')
        .filter({ hasText: `To: ${invitee}` })
        .filter({ hasText: 'invited you to the team' });
      await mail.getByRole('button', { name: 'Toggle HTML view' }).click();
      expect(narrowed, 'the first read was narrowed').toBeGreaterThan(0);
      const accept = mail
        .frameLocator('iframe')
        .getByRole('link', { name: 'Accept the invitation' });
      const href = String(await accept.getAttribute('href'));
      expect(href).toContain(`#token=`);
      expect(href).toContain(`&team=${team.teamId}`);
      // Opened in a tab of its own by its address, as a mail client does. (A Ctrl+click out of
      // the emulator's mail frame crashed the headless shell's new tab, 6 tries in 7: a segfault of
      // Chromium's, not of the page, which loads the same address here.)
      const tab = await context.newPage();
      await tab.goto(href);
      await tab.getByRole('heading', { name: 'Forms', exact: true }).waitFor();
      // Signed in to the team that invited them, the token gone from the address bar.
      expect(await tab.getByRole('combobox', { name: 'Team' }).inputValue()).toBe(team.teamId);
      expect(tab.url()).not.toContain('token');
      await tab.getByText(invitee).first().waitFor();
    } finally {
      await context.close();
    }
    const members = await api('GET', '/v1/team/members', { key: team.apiKey });
    const member = (members.body.members as { email: string; lastSignInAt: string | null }[]).find(
      (m) => m.email === invitee,
    );
    expect(member?.lastSignInAt, 'the invitation is accepted').not.toBeNull();

    // The same link again, in another browser: used, and the page says what to do.
    const again = await chromium().newContext();
    try {
      const page = await again.newPage();
      const { token } = await invitationTo(invitee);
      await page.goto(`${stack().baseUrl}/app/sign-in#token=${token}&team=${team.teamId}`);
      await page
        .getByRole('alert')
        .filter({ hasText: 'This invitation link has been used or its 7 days are over.' })
        .waitFor();
    } finally {
      await again.close();
    }
  });
});
