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
    });
    expect(emailOutcome({ claimedAt, sentAt })).toEqual({
      status: 'sent',
      at: sentAt,
      bounceType: null,
    });
  });
  it('SES’s word wins over sent, with the bounce type for a bounce only', () => {
    expect(emailOutcome({ claimedAt, sentAt, fate: 'delivered', fateAt })).toEqual({
      status: 'delivered',
      at: fateAt,
      bounceType: null,
    });
    expect(
      emailOutcome({ claimedAt, sentAt, fate: 'bounced', fateAt, bounceType: 'Permanent' }),
    ).toEqual({ status: 'bounced', at: fateAt, bounceType: 'Permanent' });
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
    });
    // Marks refused before refusedBy existed were SES's refusals.
    expect(emailOutcome({ claimedAt, refusedAt })?.status).toBe('refused');
  });
});
