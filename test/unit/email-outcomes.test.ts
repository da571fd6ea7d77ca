import { describe, expect, it } from 'vitest';
import { emailOutcome } from '#domain/email-outcomes.ts';

const claimedAt = '2026-11-26T10:00:00.000Z';
const sentAt = '2026-11-26T10:00:01.000Z';
const fateAt = '2026-11-26T10:00:05.000Z';

describe('what became of an email, from its mark', () => {
  it('no mark: no email was due', () => {
    expect(emailOutcome(undefined)).toBeNull();
  });
  it('claimed only: sending; accepted: sent', () => {
    expect(emailOutcome({ claimedAt })).toEqual({
      status: 'sending',
      at: claimedAt,
      bounceType: null,
      recipients: [],
    });
    expect(emailOutcome({ claimedAt, sentAt })).toEqual({
      status: 'sent',
      at: sentAt,
      bounceType: null,
      recipients: [],
    });
  });
  it('SES’s word wins over sent, with the bounce type for a bounce only', () => {
    expect(emailOutcome({ claimedAt, sentAt, fate: 'delivered', fateAt })).toEqual({
      status: 'delivered',
      at: fateAt,
      bounceType: null,
      recipients: [],
    });
    expect(
      emailOutcome({ claimedAt, sentAt, fate: 'bounced', fateAt, bounceType: 'Permanent' }),
    ).toEqual({ status: 'bounced', at: fateAt, bounceType: 'Permanent', recipients: [] });
    expect(emailOutcome({ claimedAt, sentAt, fate: 'bounced', fateAt })?.bounceType).toBe(
      'Undetermined',
    );
    expect(
      emailOutcome({ claimedAt, sentAt, fate: 'complained', fateAt, bounceType: 'Permanent' })
        ?.bounceType,
    ).toBeNull();
  });
  it('not sent: refused by SES, held back by the limits, or suppressed', () => {
    const refusedAt = sentAt;
    expect(emailOutcome({ claimedAt, refusedAt, refusedBy: 'ses' })?.status).toBe('refused');
    expect(emailOutcome({ claimedAt, refusedAt, refusedBy: 'limit' })?.status).toBe('limited');
    expect(emailOutcome({ claimedAt, refusedAt, refusedBy: 'suppressed' })).toEqual({
      status: 'suppressed',
      at: refusedAt,
      bounceType: null,
      recipients: [],
    });
    // Marks refused before refusedBy existed were SES's refusals.
    expect(emailOutcome({ claimedAt, refusedAt })?.status).toBe('refused');
  });

  it("per recipient: the email's status is its To's, a bounced Cc shows in its recipients only", () => {
    const mark = {
      claimedAt,
      sentAt,
      sentTo: ['Owner@Example.com', 'cc-gone@example.com', 'cc-quiet@example.com'],
      recipientFates: {
        'owner@example.com': { fate: 'delivered' as const, at: fateAt },
        'cc-gone@example.com': {
          fate: 'bounced' as const,
          at: '2026-11-26T10:00:06.000Z',
          bounceType: 'Permanent' as const,
        },
      },
    };
    expect(emailOutcome(mark)).toEqual({
      status: 'delivered',
      at: fateAt,
      bounceType: null,
      recipients: [
        { email: 'Owner@Example.com', status: 'delivered', at: fateAt, bounceType: null },
        {
          email: 'cc-gone@example.com',
          status: 'bounced',
          at: '2026-11-26T10:00:06.000Z',
          bounceType: 'Permanent',
        },
        // No event of its own yet: sent, as of the send.
        { email: 'cc-quiet@example.com', status: 'sent', at: sentAt, bounceType: null },
      ],
    });
    // The To bounced: so did the email.
    const toGone = {
      ...mark,
      recipientFates: { 'owner@example.com': { fate: 'bounced' as const, at: fateAt } },
    };
    expect(emailOutcome(toGone)).toMatchObject({
      status: 'bounced',
      bounceType: 'Undetermined',
    });
    // Claimed with its map, not yet marked sent: sending, whoever is named.
    expect(emailOutcome({ claimedAt, recipientFates: {} })).toMatchObject({
      status: 'sending',
      recipients: [],
    });
  });
});
