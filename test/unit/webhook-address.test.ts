import { describe, expect, it } from 'vitest';
import { addressAllowed } from '#net/webhook-sender.ts';

// The pure address check of the webhook sender's guard: no network here.
describe('addressAllowed', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82b::200e',
  ])('allows the public unicast address %s', (address) => {
    expect(addressAllowed(address, false)).toEqual({ allowed: true });
    expect(addressAllowed(address, true)).toEqual({ allowed: true });
  });

  it.each([
    ['10.0.0.5', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['127.0.0.1', 'a loopback address'],
    ['127.255.255.254', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['169.254.169.254', 'a link-local address'],
    ['169.254.0.1', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['100.127.255.254', 'a carrier-grade NAT address'],
    ['fd00::1', 'a unique local address'],
    ['fc00::1', 'a unique local address'],
    ['fd00:ec2::254', 'a unique local address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['0.0.0.0', 'an unspecified address'],
    ['0.1.2.3', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['255.255.255.255', 'a broadcast address'],
    ['192.0.2.1', 'a reserved address'],
    ['198.51.100.7', 'a reserved address'],
    ['203.0.113.9', 'a reserved address'],
    ['198.18.0.1', 'a reserved address'],
    ['240.0.0.1', 'a reserved address'],
    ['2001:db8::1', 'a reserved address'],
    ['::ffff:8.8.8.8', 'an IPv4-mapped address'],
    ['::ffff:10.0.0.1', 'an IPv4-mapped address of 10.0.0.1, a private address'],
    ['::ffff:169.254.169.254', 'an IPv4-mapped address of 169.254.169.254, a link-local address'],
    ['::ffff:127.0.0.1', 'an IPv4-mapped address of 127.0.0.1, a loopback address'],
    ['::ffff:0:a00:1', 'an IPv4-translated address'],
    ['64:ff9b::a00:1', 'an IPv4/IPv6 translation address'],
    ['64:ff9b:1::a00:1', 'an IPv4/IPv6 translation address'],
    ['2002:a00:1::1', 'a 6to4 tunnel address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'a Teredo tunnel address'],
    ['fec0::1', 'a special-purpose address (deprecatedSiteLocal)'],
    ['100::1', 'a special-purpose address (discard)'],
    ['192.175.48.1', 'a special-purpose address (as112)'],
    ['::a00:1', 'outside the global unicast range 2000::/3'],
    ['::8.8.8.8', 'outside the global unicast range 2000::/3'],
    ['::127.0.0.1', 'outside the global unicast range 2000::/3'],
    ['::ffff:808:808', 'an IPv4-mapped address'],
    ['4000::1', 'outside the global unicast range 2000::/3'],
  ])('refuses %s: %s', (address, reason) => {
    expect(addressAllowed(address, false)).toEqual({ allowed: false, reason });
  });

  it('allowLoopback lets 127/8, ::1 and a mapped 127/8 through, and nothing else', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '[::1]']) {
      expect(addressAllowed(address, true)).toEqual({ allowed: true });
    }
    for (const address of [
      '10.0.0.5',
      '169.254.169.254',
      '0.0.0.0',
      '::',
      'fd00::1',
      '::2',
      '::127.0.0.1',
    ]) {
      expect(addressAllowed(address, true).allowed).toBe(false);
    }
  });

  it('reads bracketed IPv6 as URL hosts write it', () => {
    expect(addressAllowed('[fd00::1]', false)).toEqual({
      allowed: false,
      reason: 'a unique local address',
    });
    expect(addressAllowed('[2606:4700:4700::1111]', false)).toEqual({ allowed: true });
  });

  it.each(['0x7f.1', '127.1', '010.0.0.1', '2130706433', 'example.com', '', ' 8.8.8.8', '1.2.3'])(
    'refuses %j: not a strictly written IP address (ipaddr.js alone would read some leniently)',
    (address) => {
      expect(addressAllowed(address, true)).toEqual({
        allowed: false,
        reason: 'not an IP address',
      });
    },
  );
});
