import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mailboxHash, mailboxOf } from '#domain/mailbox.ts';

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

describe('the keyed hash the bounds count a mailbox by', () => {
  const secret = 'k'.repeat(64);
  it('is 32 hex digits, the same for one mailbox and key, another under another key', () => {
    const hash = mailboxHash(secret, 'victim@example.com');
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(mailboxHash(secret, 'victim@example.com')).toBe(hash);
    expect(mailboxHash('j'.repeat(64), 'victim@example.com')).not.toBe(hash);
    expect(mailboxHash(secret, 'other@example.com')).not.toBe(hash);
    expect(createHash('sha256').update('victim@example.com').digest('hex')).not.toContain(hash);
  });
  it('refuses a short secret', () => {
    expect(() => mailboxHash('short', 'victim@example.com')).toThrow(/at least/);
  });
});
