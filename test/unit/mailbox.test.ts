import { describe, expect, it } from 'vitest';
import { mailboxOf } from '#domain/mailbox.ts';

describe('the mailbox an address reaches', () => {
  it('drops case and +tags everywhere', () => {
    expect(mailboxOf('Victim+1@Example.COM')).toBe('victim@example.com');
    expect(mailboxOf('victim+a+b@example.com')).toBe('victim@example.com');
    expect(mailboxOf('victim@example.com')).toBe('victim@example.com');
  });

  it('drops dots for Gmail only, and reads googlemail as gmail', () => {
    expect(mailboxOf('v.ic.tim+x@gmail.com')).toBe('victim@gmail.com');
    expect(mailboxOf('V.Ictim@GoogleMail.com')).toBe('victim@gmail.com');
    expect(mailboxOf('v.ictim@example.com')).toBe('v.ictim@example.com');
  });

  it('leaves a leading + and anything without a local part as it is, lower-cased', () => {
    expect(mailboxOf('+tag@example.com')).toBe('+tag@example.com');
    expect(mailboxOf('Nobody')).toBe('nobody');
  });
});
