import { describe, expect, it } from 'vitest';
import { INVITATION_TTL_SECONDS, invitationEmail, inviterWords } from '#domain/invitation.ts';

/** The team invitation's own email (docs/people.md#invitations). */

const base = {
  to: 'grace@example.com',
  baseUrl: 'https://forms.example.com',
  token: 'T'.repeat(43),
  teamId: '0190c6a2-7b1e-7cde-8f00-123456789abc',
  teamName: 'Acme',
  inviter: { name: 'Ada Lovelace', email: 'ada@example.com' },
  endsAt: new Date('2026-12-05T10:00:00.000Z'),
};

describe('the invitation email', () => {
  it('says who invited you to which team, with one link valid 7 days, no code, no "did not ask to sign in"', () => {
    const message = invitationEmail(base);
    expect(message.subject).toBe('Ada Lovelace (ada@example.com) invited you to the team “Acme”');
    expect(message.text).toContain(
      'Ada Lovelace (ada@example.com) invited you to join the team “Acme” on the form service at https://forms.example.com.',
    );
    // The link names its team: accepting opens that team, not the one the invitee used last.
    const link = `https://forms.example.com/app/sign-in#token=${base.token}&team=${base.teamId}`;
    expect(message.text).toContain(link);
    expect(message.html).toContain(`href="${link.replace('&', '&amp;')}"`);
    expect(message.text).toContain('for 7 days (until 2026-12-05 10:00 UTC)');
    expect(INVITATION_TTL_SECONDS).toBe(604_800);
    for (const body of [message.text, message.html]) {
      expect(body).not.toMatch(/did not ask to sign in/i);
      expect(body).not.toMatch(/\b\d{6}\b/);
      expect(body).not.toMatch(/code/i);
    }
    expect(message.html).toContain('>Accept the invitation</a>');
  });

  it('escapes every name in the HTML and keeps the subject one line', () => {
    const message = invitationEmail({
      ...base,
      teamName: 'Acme <script>alert(1)</script>\r\nBcc: evil@example.com',
      inviter: { name: '<b>Mallory</b>\nX-Evil: 1', email: 'mallory@example.com' },
    });
    expect(message.html).not.toContain('<script>');
    expect(message.html).not.toContain('<b>Mallory');
    expect(message.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(message.subject).not.toMatch(/[\r\n]/);
    expect(message.subject).toContain('Bcc: evil@example.com'); // as text, on the one line
    expect(message.text.split('\n')[0]).not.toContain('\r');
  });

  it('names the inviter as best it can', () => {
    expect(inviterWords({ email: 'ada@example.com' })).toBe('ada@example.com');
    expect(inviterWords({ name: 'ada@example.com', email: 'ADA@example.com' })).toBe(
      'ada@example.com',
    );
    expect(inviterWords({})).toBe('An owner of the team');
  });
});
