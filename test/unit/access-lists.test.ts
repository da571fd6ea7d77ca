import { describe, expect, it } from 'vitest';
import { canonicalIp, canonicalIpOrRange, normalizeOrigin } from '#domain/access-lists.ts';
import { onAllowedSite } from '#domain/addresses.ts';
import { COUNTRY_CODE_COUNT, isCountryCode } from '#domain/country-codes.ts';
import { ServiceError } from '#domain/errors.ts';
import { parseFormUpdate } from '#domain/form-update.ts';
import type { Issue } from '#domain/validation-issues.ts';

function issuesFor(body: unknown): Issue[] {
  try {
    parseFormUpdate(body);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return (error as ServiceError).issues as Issue[];
  }
  throw new Error(`expected ${JSON.stringify(body).slice(0, 200)} to be refused`);
}

function pathsFor(body: unknown): string[] {
  return issuesFor(body).map((issue) => issue.path);
}

describe('allowedOrigins', () => {
  it('keeps scheme, host and port only: paths, queries, fragments and credentials are dropped', () => {
    const { allowedOrigins } = parseFormUpdate({
      allowedOrigins: [
        'https://example.com/contact?ref=1#top',
        'https://user:pw@shop.example.com/',
        'http://localhost:5173/form',
      ],
    });
    expect(allowedOrigins).toEqual([
      'https://example.com',
      'https://shop.example.com',
      'http://localhost:5173',
    ]);
  });

  it('lower-cases the host and drops default ports, then removes duplicates', () => {
    const { allowedOrigins } = parseFormUpdate({
      allowedOrigins: [
        'HTTPS://Example.COM:443/a',
        'https://example.com',
        'http://example.com:80/',
        'http://example.com:8080',
        ' https://example.com/b ',
      ],
    });
    expect(allowedOrigins).toEqual([
      'https://example.com',
      'http://example.com',
      'http://example.com:8080',
    ]);
  });

  it('writes hosts as browsers send them in Origin: punycode, IPv6 in brackets', () => {
    expect(normalizeOrigin('https://bücher.de/x')).toBe('https://xn--bcher-kva.de');
    expect(normalizeOrigin('http://[::1]:3000/x')).toBe('http://[::1]:3000');
  });

  it('refuses entries that are not http or https website addresses, at their index', () => {
    expect(
      pathsFor({
        allowedOrigins: ['https://ok.example', 'example.com', 'ftp://example.com', 'https://', ''],
      }),
    ).toEqual(['allowedOrigins.1', 'allowedOrigins.2', 'allowedOrigins.3', 'allowedOrigins.4']);
  });

  it('takes up to 50 entries; an empty list allows every website', () => {
    const n = (count: number) => Array.from({ length: count }, (_, i) => `https://s${i}.example`);
    expect(parseFormUpdate({ allowedOrigins: n(50) }).allowedOrigins).toHaveLength(50);
    expect(pathsFor({ allowedOrigins: n(51) })).toEqual(['allowedOrigins']);
    expect(parseFormUpdate({ allowedOrigins: [] }).allowedOrigins).toEqual([]);
  });
});

describe('onAllowedSite (an expired confirmation link’s way back)', () => {
  it('takes a web page on a listed origin only; an empty list takes none', () => {
    const listed = ['https://site.example'];
    expect(onAllowedSite(listed, 'https://site.example/contact?x=1')).toBe(true);
    expect(onAllowedSite(listed, 'https://SITE.example:443/')).toBe(true);
    expect(onAllowedSite(listed, 'https://evil.example/site.example')).toBe(false);
    expect(onAllowedSite(listed, 'http://site.example/')).toBe(false);
    expect(onAllowedSite(listed, 'javascript:alert(1)')).toBe(false);
    expect(onAllowedSite(listed, 'not a url')).toBe(false);
    expect(onAllowedSite([], 'https://site.example/')).toBe(false);
  });
});

describe('blockedIps', () => {
  it('keeps valid IPv4 and IPv6 addresses in one canonical spelling', () => {
    expect(canonicalIp('203.0.113.7')).toBe('203.0.113.7');
    expect(canonicalIp('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(canonicalIp('2001:0db8::0001')).toBe('2001:db8::1');
    expect(canonicalIp('::1')).toBe('::1');
    // The same visitor as 192.0.2.1, so it must match the IPv4 spelling.
    expect(canonicalIp('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(canonicalIp('::FFFF:C000:0201')).toBe('192.0.2.1');
  });

  it('removes duplicates after canonicalizing', () => {
    const { blockedIps } = parseFormUpdate({
      blockedIps: [
        '2001:db8::1',
        '2001:DB8:0:0::1',
        '192.0.2.1',
        '::ffff:192.0.2.1',
        ' 192.0.2.1 ',
      ],
    });
    expect(blockedIps).toEqual(['2001:db8::1', '192.0.2.1']);
  });

  it('refuses what is not one address as a visitor address: ranges, zones, hostnames, sloppy IPv4', () => {
    const bad = [
      '1.2.3',
      '256.0.0.1',
      '01.2.3.4',
      '10.0.0.0/8',
      '2001:db8::/32',
      'fe80::1%eth0',
      '[::1]',
      'example.com',
      '1:2:3:4:5:6:7:8:9',
    ];
    for (const value of bad) expect(canonicalIp(value), value).toBeUndefined();
  });

  it('stores a CIDR range as its network address and prefix, host bits cleared', () => {
    const cases: [string, string][] = [
      ['192.0.2.0/24', '192.0.2.0/24'],
      ['10.1.2.3/8', '10.0.0.0/8'],
      ['203.0.113.77/27', '203.0.113.64/27'],
      ['198.51.100.255/31', '198.51.100.254/31'],
      ['1.2.3.4/0', '0.0.0.0/0'],
      ['2001:db8::/32', '2001:db8::/32'],
      ['2001:DB8:0:0:1::/80', '2001:db8:0:0:1::/80'],
      ['2001:DB8:0:0:1::/64', '2001:db8::/64'],
      ['2001:db8::1/48', '2001:db8::/48'],
      ['2001:0db8:abcd:12ff::/56', '2001:db8:abcd:1200::/56'],
      ['2001:db8:1:2:3:4:5:6/64', '2001:db8:1:2::/64'],
      ['FFFF::/2', 'c000::/2'],
      ['::1/127', '::/127'],
      ['::/0', '::/0'],
    ];
    for (const [written, stored] of cases)
      expect(canonicalIpOrRange(written), written).toBe(stored);
  });

  it('stores an IPv4-mapped range of /96 or longer as the IPv4 range, a shorter one as IPv6', () => {
    expect(canonicalIpOrRange('::ffff:192.0.2.0/120')).toBe('192.0.2.0/24');
    expect(canonicalIpOrRange('::FFFF:C000:0280/121')).toBe('192.0.2.128/25');
    expect(canonicalIpOrRange('::ffff:198.51.100.7/127')).toBe('198.51.100.6/31');
    expect(canonicalIpOrRange('::ffff:0:0/96')).toBe('0.0.0.0/0');
    expect(canonicalIpOrRange('::ffff:1.2.3.4/95')).toBe('::fffe:0:0/95');
    expect(canonicalIpOrRange('::ffff:1.2.3.4/80')).toBe('::/80');
  });

  it('stores a range of one address (/32, /128, mapped /128) as the plain address', () => {
    expect(canonicalIpOrRange('203.0.113.7/32')).toBe('203.0.113.7');
    expect(canonicalIpOrRange('2001:DB8::1/128')).toBe('2001:db8::1');
    expect(canonicalIpOrRange('::ffff:192.0.2.1/128')).toBe('192.0.2.1');
    const { blockedIps } = parseFormUpdate({
      blockedIps: ['203.0.113.7', '203.0.113.7/32', '10.9.8.7/8', '10.0.0.0/8', '2001:db8::1/128'],
    });
    expect(blockedIps).toEqual(['203.0.113.7', '10.0.0.0/8', '2001:db8::1']);
  });

  it('refuses bad ranges: prefixes out of bounds or sloppy, bad or zoned addresses', () => {
    const bad = [
      '10.0.0.0/33',
      '::ffff:192.0.2.0/129',
      '2001:db8::/129',
      '1.2.3.4/',
      '/24',
      '/',
      '1.2.3.4/-1',
      '1.2.3.4/+8',
      '1.2.3.4/08',
      '1.2.3.4/8.0',
      '1.2.3.4/ 8',
      '1.2.3.4 /8',
      '1.2.3.4/0x8',
      '1.2.3.4/8/8',
      '10.0.0.0/255.0.0.0',
      '1.2.3/8',
      '01.2.3.4/8',
      '256.0.0.0/8',
      'fe80::%eth0/64',
      '[2001:db8::]/32',
      'example.com/24',
    ];
    for (const value of bad) expect(canonicalIpOrRange(value), value).toBeUndefined();
  });

  it('answers a bad entry with a 400 issue at its index naming addresses and CIDR ranges', () => {
    const issues = issuesFor({
      blockedIps: ['192.0.2.1', '10.0.0.0/33', '198.51.100.0/24', '1.2.3.4/', 'example.com'],
    });
    expect(issues.map((issue) => issue.path)).toEqual([
      'blockedIps.1',
      'blockedIps.3',
      'blockedIps.4',
    ]);
    for (const issue of issues) {
      expect(issue.message).toBe(
        'Must be an IPv4 or IPv6 address, or a CIDR range such as 203.0.113.0/24',
      );
    }
  });

  it('takes up to 1,000 entries, ranges and addresses alike', () => {
    const n = (count: number) =>
      Array.from({ length: count }, (_, i) =>
        i % 2 === 0 ? `10.0.${Math.floor(i / 256)}.${i % 256}` : `2001:db8:${i.toString(16)}::/48`,
      );
    expect(parseFormUpdate({ blockedIps: n(1000) }).blockedIps).toHaveLength(1000);
    expect(pathsFor({ blockedIps: n(1001) })).toEqual(['blockedIps']);
  });
});

describe('blockedCountries', () => {
  it('takes codes in any case and stores them upper-case without duplicates', () => {
    const { blockedCountries } = parseFormUpdate({
      blockedCountries: ['us', 'De', 'US', ' fr ', 'xk'],
    });
    expect(blockedCountries).toEqual(['US', 'DE', 'FR', 'XK']);
  });

  it('refuses codes that are not assigned countries, at their index', () => {
    const bad = ['UK', 'EU', 'UN', 'ZZ', 'AA', 'XA', 'SU', 'USA', 'U', '', '12'];
    expect(pathsFor({ blockedCountries: ['US', ...bad] })).toEqual(
      bad.map((_, i) => `blockedCountries.${i + 1}`),
    );
  });

  it('knows exactly the 249 ISO 3166-1 countries plus Kosovo, each a real region', () => {
    expect(COUNTRY_CODE_COUNT).toBe(250);
    const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    let known = 0;
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        if (!isCountryCode(code)) continue;
        known++;
        expect(names.of(code), code).toBeTruthy();
      }
    }
    expect(known).toBe(250);
    expect(isCountryCode('us')).toBe(false);
  });

  it('takes up to 300 entries', () => {
    expect(parseFormUpdate({ blockedCountries: Array(300).fill('US') }).blockedCountries).toEqual([
      'US',
    ]);
    expect(pathsFor({ blockedCountries: Array(301).fill('US') })).toEqual(['blockedCountries']);
  });
});
