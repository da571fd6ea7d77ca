import { describe, expect, it } from 'vitest';
import { memberEmail } from '#domain/members.ts';
import {
  CODE_PATTERN,
  hashCode,
  issueSignIn,
  sameHash,
  signInEmail,
  TOKEN_PATTERN,
} from '#domain/sign-in.ts';

describe('sign-in secrets', () => {
  it('a 256-bit link token and a 6-digit code, stored only as hashes', () => {
    const issued = issueSignIn('ada@example.com');
    expect(issued.token).toMatch(TOKEN_PATTERN);
    expect(Buffer.from(issued.token, 'base64url')).toHaveLength(32);
    expect(issued.code).toMatch(CODE_PATTERN);
    expect(issued.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(issued.tokenHash).not.toContain(issued.token);
    expect(issued.codeHash).toBe(hashCode('ada@example.com', issued.code));
  });

  it('a code’s hash is bound to its address: the same code for another address does not match', () => {
    expect(hashCode('ada@example.com', '123456')).not.toBe(hashCode('bob@example.com', '123456'));
  });

  it('codes cover the whole 000000–999999 range (leading zeros kept)', () => {
    const codes = Array.from({ length: 2000 }, () => issueSignIn('a@b.co').code);
    expect(codes.every((code) => CODE_PATTERN.test(code))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1990);
  });

  it('compares hashes whole, in constant time, and refuses different lengths', () => {
    const hash = hashCode('a@b.co', '000001');
    expect(sameHash(hash, hash)).toBe(true);
    expect(sameHash(hash, hashCode('a@b.co', '000002'))).toBe(false);
    expect(sameHash(hash, hash.slice(0, 62))).toBe(false);
    expect(sameHash(hash, '')).toBe(false);
  });
});

describe('the sign-in email', () => {
  const mail = signInEmail({
    to: 'ada@example.com',
    baseUrl: 'https://forms.example.com',
    token: 'T'.repeat(43),
    code: '012345',
    teamNames: ['<Acme & Co>'],
  });

  it('links to the configured base URL with the token in the fragment (never sent to a server by the browser)', () => {
    expect(mail.text).toContain(`https://forms.example.com/app/sign-in#token=${'T'.repeat(43)}`);
    expect(mail.html).toContain(
      `href="https://forms.example.com/app/sign-in#token=${'T'.repeat(43)}"`,
    );
  });

  it('gives the code for another device, and escapes the team name in HTML', () => {
    expect(mail.text).toContain('012345');
    expect(mail.subject).toContain('012345');
    expect(mail.html).toContain('&lt;Acme &amp; Co&gt;');
    expect(mail.html).not.toContain('<Acme');
  });
});

describe('member addresses', () => {
  it('are compared trimmed and lower-cased, tags and dots kept', () => {
    expect(memberEmail('  Ada.Lovelace+Forms@Example.COM ')).toBe('ada.lovelace+forms@example.com');
  });
});
