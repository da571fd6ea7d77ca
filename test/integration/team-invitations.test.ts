import { describe, expect, it, vi } from 'vitest';
import {
  invitationsTo,
  invitationTo,
  signInEmailsTo,
  teamWithOwner,
  verify,
} from '#test/support/accounts.ts';
import { api } from '#test/support/api.ts';
import { eventually } from '#test/support/delivery.ts';

vi.setConfig({ testTimeout: 90_000 });

/** docs/people.md#invitations */
describe('sending an invitation again', () => {
  it('emails a pending member a fresh link through the invite’s path; refused once they signed in', async () => {
    const owner = await teamWithOwner();
    const email = `pending-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const invited = await api('POST', '/v1/team/members', { key: owner.apiKey, body: { email } });
    expect(invited.status, invited.text).toBe(201);
    const first = await invitationTo(email);

    const resent = await api('POST', `/v1/team/members/${invited.body.userId}/invitation`, {
      key: owner.apiKey,
    });
    expect(resent.status, resent.text).toBe(202);
    expect(resent.body).toMatchObject({ email, userId: invited.body.userId, lastSignInAt: null });
    const second = await invitationTo(email, 1);
    expect(second.token).not.toBe(first.token);
    // The same kind of email: who invited to which team, a link of 7 days.
    expect(second.email.subject).toBe(first.email.subject);
    expect(second.email.body.text).toContain('for 7 days');

    const audit = await api('GET', '/v1/team/audit', { key: owner.apiKey });
    expect((audit.body.events as unknown[])[0]).toMatchObject({
      action: 'member.invitation_resent',
      target: invited.body.userId,
      details: { email, role: 'member' },
    });

    // The fresh link signs the member in; after that there is no invitation to send.
    expect((await verify({ token: second.token })).status).toBe(200);
    const again = await api('POST', `/v1/team/members/${invited.body.userId}/invitation`, {
      key: owner.apiKey,
    });
    expect(again.status, again.text).toBe(409);
    expect(again.body).toMatchObject({ error: 'invitation_accepted' });
    expect(await invitationsTo(email)).toHaveLength(2);
    expect(await signInEmailsTo(email)).toBe(0);
  });

  it('counts toward the address’s sign-in emails: past them 429 and nothing sent; an unknown member is 404', async () => {
    const owner = await teamWithOwner();
    const email = `often-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const invited = await api('POST', '/v1/team/members', { key: owner.apiKey, body: { email } });
    expect(invited.status, invited.text).toBe(201);
    const resend = () =>
      api('POST', `/v1/team/members/${invited.body.userId}/invitation`, { key: owner.apiKey });
    // The invite was the first of 5 emails an hour to one address from one requester.
    for (let sent = 2; sent <= 5; sent += 1) expect((await resend()).status).toBe(202);
    const over = await resend();
    expect(over.status, over.text).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(
      await eventually(
        async () => (await invitationsTo(email)).length,
        (count) => count >= 5,
      ),
    ).toBe(5);

    const unknown = await api('POST', `/v1/team/members/${crypto.randomUUID()}/invitation`, {
      key: owner.apiKey,
    });
    expect(unknown.status).toBe(404);
  });
});
