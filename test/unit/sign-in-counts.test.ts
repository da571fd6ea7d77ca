import { describe, expect, it } from 'vitest';
import {
  hashCode,
  issueSignIn,
  NO_CODE_HASH,
  SIGN_IN_TTL_SECONDS,
  sameHash,
} from '#domain/sign-in.ts';
import {
  SIGN_IN_ADDRESS_WINDOW_SECONDS,
  SIGN_INS_PER_ADDRESS_AND_IP_PER_HOUR,
  SIGN_INS_PER_ADDRESS_PER_WINDOW,
} from '#domain/sign-in-limits.ts';
import { codeTriesScope } from '#store/code-tries.ts';
import {
  signInAddressIpScope,
  signInAddressScope,
  signInIpScope,
  verifyIpScope,
} from '#store/sign-in-counts.ts';

describe('the sign-in limits’ requesters', () => {
  it('count an IPv6 requester by its /64, as the submit path counts a visitor', () => {
    const one = '2001:db8:1:2::1';
    const sameNetwork = '2001:0db8:0001:0002:ffff:0:0:9';
    const otherNetwork = '2001:db8:1:3::1';
    for (const scope of [
      signInIpScope,
      verifyIpScope,
      (ip: string) => signInAddressIpScope('ada@example.com', ip),
    ]) {
      expect(scope(sameNetwork)).toBe(scope(one));
      expect(scope(otherNetwork)).not.toBe(scope(one));
      expect(scope(one)).toContain('2001:db8:1:2::/64');
    }
  });

  it('count an IPv4 requester by its address, and an IPv4-mapped IPv6 one as that IPv4', () => {
    expect(signInIpScope('203.0.113.9')).toBe('SIGNIN-IP#203.0.113.9');
    expect(signInIpScope('::ffff:203.0.113.9')).toBe('SIGNIN-IP#203.0.113.9');
    expect(verifyIpScope('203.0.113.9')).not.toBe(verifyIpScope('203.0.113.10'));
  });

  it('keep no address in a key, and keep the address’s windows apart from each other', () => {
    const scopes = [
      signInAddressScope('ada@example.com'),
      signInAddressIpScope('ada@example.com', '203.0.113.9'),
      codeTriesScope('ada@example.com'),
    ];
    for (const scope of scopes) expect(scope).not.toContain('ada');
    expect(new Set(scopes).size).toBe(3);
  });
});

describe('the sign-in bounds', () => {
  it('the per-address window is no longer than a link lives, so a refusal comes with a live link', () => {
    expect(SIGN_IN_ADDRESS_WINDOW_SECONDS).toBeLessThanOrEqual(SIGN_IN_TTL_SECONDS);
    // One requester cannot fill the address's window alone.
    expect(SIGN_INS_PER_ADDRESS_PER_WINDOW).toBeGreaterThan(SIGN_INS_PER_ADDRESS_AND_IP_PER_HOUR);
  });

  it('no code matches the hash a wrong code is compared with when none is pending', () => {
    const issued = issueSignIn('ada@example.com');
    expect(sameHash(issued.codeHash, NO_CODE_HASH)).toBe(false);
    expect(sameHash(hashCode('ada@example.com', '000000'), NO_CODE_HASH)).toBe(false);
    expect(NO_CODE_HASH).toHaveLength(issued.codeHash.length);
  });
});
