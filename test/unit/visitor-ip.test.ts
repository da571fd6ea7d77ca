import { describe, expect, it } from 'vitest';
import { storedVisitorIp, visitorHash } from '#domain/visitor-ip.ts';

const SECRET = 'a'.repeat(64);
const never = () => {
  throw new Error('the secret was read');
};

describe('what a submission keeps of the visitor address (docs/people.md#visitor-addresses)', () => {
  it('a hash is hash: and 16 hex digits, the same for one address in one team, another in another', () => {
    const hash = visitorHash(SECRET, 'team-1', '203.0.113.7');
    expect(hash).toMatch(/^hash:[0-9a-f]{16}$/);
    expect(visitorHash(SECRET, 'team-1', '203.0.113.7')).toBe(hash);
    expect(visitorHash(SECRET, 'team-2', '203.0.113.7')).not.toBe(hash);
    expect(visitorHash(SECRET, 'team-1', '203.0.113.8')).not.toBe(hash);
    expect(visitorHash('b'.repeat(64), 'team-1', '203.0.113.7')).not.toBe(hash);
    expect(visitorHash(SECRET, 'team-1', '2001:DB8::1')).toBe(
      visitorHash(SECRET, 'team-1', '2001:db8::1'),
    );
  });

  it('refuses a short secret rather than hash with it', () => {
    expect(() => visitorHash('short', 'team-1', '203.0.113.7')).toThrow(/at least 32/);
  });

  it('dontStoreIp wins; address keeps the address without reading the secret; keyedHash hashes', () => {
    const address = '198.51.100.1';
    expect(
      storedVisitorIp(address, { dontStoreIp: true, ipStorage: 'keyedHash', teamId: 't' }, never),
    ).toBeUndefined();
    expect(
      storedVisitorIp(address, { dontStoreIp: false, ipStorage: undefined, teamId: 't' }, never),
    ).toBe(address);
    expect(
      storedVisitorIp(address, { dontStoreIp: false, ipStorage: 'address', teamId: 't' }, never),
    ).toBe(address);
    expect(
      storedVisitorIp(
        address,
        { dontStoreIp: false, ipStorage: 'keyedHash', teamId: 't' },
        () => SECRET,
      ),
    ).toBe(visitorHash(SECRET, 't', address));
    expect(
      storedVisitorIp(
        undefined,
        { dontStoreIp: false, ipStorage: 'keyedHash', teamId: 't' },
        never,
      ),
    ).toBeUndefined();
  });
});
