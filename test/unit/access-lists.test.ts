import { describe, expect, it } from 'vitest';
import { canonicalIp, normalizeOrigin } from '../../lambdas/domain/access-lists.ts';
import { COUNTRY_CODE_COUNT, isCountryCode } from '../../lambdas/domain/country-codes.ts';
import { ServiceError } from '../../lambdas/domain/errors.ts';
import { parseFormUpdate } from '../../lambdas/domain/form-update.ts';
import type { Issue } from '../../lambdas/domain/validation-issues.ts';

function pathsFor(body: unknown): string[] {
  try {
    parseFormUpdate(body);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return ((error as ServiceError).issues as Issue[]).map((issue) => issue.path);
  }
  throw new Error(`expected ${JSON.stringify(body).slice(0, 200)} to be refused`);
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

  it('refuses what is not a single address: ranges, zones, hostnames, sloppy IPv4', () => {
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
    expect(pathsFor({ blockedIps: ['192.0.2.1', '10.0.0.0/8'] })).toEqual(['blockedIps.1']);
  });

  it('takes up to 1,000 entries', () => {
    const n = (count: number) =>
      Array.from({ length: count }, (_, i) => `10.0.${Math.floor(i / 256)}.${i % 256}`);
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
