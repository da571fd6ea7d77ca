import { describe, expect, it } from 'vitest';
import { canonicalIpOrRange } from '#domain/access-lists.ts';
import { visitorNetwork } from '#domain/ip-ranges.ts';
import { clientIpOf, countryOf, deviceClassOf, isBlocked, originAllowed } from '#domain/visitor.ts';

const UA = {
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  androidPhone:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.6422.113 Mobile Safari/537.36',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  chromebook:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  samsungTv:
    'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  googlebotSmartphone:
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.6422.60 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  curl: 'curl/8.7.1',
  pythonRequests: 'python-requests/2.32.3',
};

const cloudFront = (device: 'desktop' | 'mobile' | 'tablet' | 'smarttv') => ({
  'cloudfront-is-desktop-viewer': String(device === 'desktop'),
  // CloudFront marks tablets as mobile viewers too.
  'cloudfront-is-mobile-viewer': String(device === 'mobile' || device === 'tablet'),
  'cloudfront-is-tablet-viewer': String(device === 'tablet'),
  'cloudfront-is-smarttv-viewer': String(device === 'smarttv'),
});

describe('deviceClassOf from the User-Agent alone', () => {
  it.each([
    ['iPhone Safari', UA.iphoneSafari, 'mobile'],
    ['iPad Safari', UA.ipad, 'tablet'],
    ['Android phone Chrome', UA.androidPhone, 'mobile'],
    ['Android tablet Chrome', UA.androidTablet, 'tablet'],
    ['Windows Chrome', UA.windowsChrome, 'desktop'],
    ['macOS Safari', UA.macSafari, 'desktop'],
    ['Linux Firefox', UA.linuxFirefox, 'desktop'],
    ['Chromebook (Bowser names no platform for it)', UA.chromebook, 'desktop'],
    ['a smart TV counts as desktop', UA.samsungTv, 'desktop'],
    ['Googlebot', UA.googlebot, 'bot'],
    ['Googlebot smartphone (looks like Android Chrome)', UA.googlebotSmartphone, 'bot'],
    ['curl: isbot counts HTTP clients as bots', UA.curl, 'bot'],
    ['python-requests', UA.pythonRequests, 'bot'],
  ])('%s', (_name, userAgent, expected) => {
    expect(deviceClassOf({ 'user-agent': userAgent })).toBe(expected);
  });

  it('is unknown for a missing, empty or blank User-Agent', () => {
    expect(deviceClassOf({})).toBeUndefined();
    expect(deviceClassOf({ 'user-agent': '' })).toBeUndefined();
    expect(deviceClassOf({ 'user-agent': '   ' })).toBeUndefined();
  });

  it('is unknown for a browser-looking agent Bowser cannot place', () => {
    const playStation =
      'Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko)';
    expect(deviceClassOf({ 'user-agent': playStation })).toBeUndefined();
  });

  it('survives a huge padded User-Agent', () => {
    const padded = `${UA.windowsChrome} ${'('.repeat(8000)}`;
    expect(deviceClassOf({ 'user-agent': padded })).toBe('desktop');
  });
});

describe('deviceClassOf with CloudFront viewer headers', () => {
  it('takes the CloudFront verdict over the User-Agent', () => {
    expect(deviceClassOf({ ...cloudFront('mobile'), 'user-agent': UA.windowsChrome })).toBe(
      'mobile',
    );
    expect(deviceClassOf({ ...cloudFront('desktop'), 'user-agent': UA.iphoneSafari })).toBe(
      'desktop',
    );
  });

  it('checks tablet before mobile, since CloudFront marks tablets as both', () => {
    expect(deviceClassOf(cloudFront('tablet'))).toBe('tablet');
  });

  it('maps each CloudFront viewer type without any User-Agent', () => {
    expect(deviceClassOf(cloudFront('mobile'))).toBe('mobile');
    expect(deviceClassOf(cloudFront('desktop'))).toBe('desktop');
    expect(deviceClassOf(cloudFront('smarttv'))).toBe('desktop');
  });

  it('reads the header values case-insensitively', () => {
    expect(deviceClassOf({ 'cloudfront-is-mobile-viewer': 'TRUE' })).toBe('mobile');
  });

  it('a recognised bot wins over CloudFront headers', () => {
    expect(deviceClassOf({ ...cloudFront('mobile'), 'user-agent': UA.googlebotSmartphone })).toBe(
      'bot',
    );
    expect(deviceClassOf({ ...cloudFront('desktop'), 'user-agent': UA.curl })).toBe('bot');
  });

  it('falls back to the User-Agent when every CloudFront header is false', () => {
    const allFalse = {
      'cloudfront-is-desktop-viewer': 'false',
      'cloudfront-is-mobile-viewer': 'false',
      'cloudfront-is-tablet-viewer': 'false',
      'cloudfront-is-smarttv-viewer': 'false',
    };
    expect(deviceClassOf({ ...allFalse, 'user-agent': UA.ipad })).toBe('tablet');
    expect(deviceClassOf(allFalse)).toBeUndefined();
  });
});

describe('countryOf', () => {
  it('upper-cases a valid viewer country', () => {
    expect(countryOf({ 'cloudfront-viewer-country': 'de' })).toBe('DE');
    expect(countryOf({ 'cloudfront-viewer-country': 'US' })).toBe('US');
    expect(countryOf({ 'cloudfront-viewer-country': 'XK' })).toBe('XK');
  });

  it('is unknown for missing, unassigned or malformed codes', () => {
    expect(countryOf({})).toBeUndefined();
    expect(countryOf({ 'cloudfront-viewer-country': '' })).toBeUndefined();
    // CloudFront's "unknown" value, and ICU-only groupings.
    expect(countryOf({ 'cloudfront-viewer-country': 'XX' })).toBeUndefined();
    expect(countryOf({ 'cloudfront-viewer-country': 'EU' })).toBeUndefined();
    expect(countryOf({ 'cloudfront-viewer-country': 'DEU' })).toBeUndefined();
    expect(countryOf({ 'cloudfront-viewer-country': '💥' })).toBeUndefined();
  });
});

describe('clientIpOf', () => {
  it('uses the source IP in canonical form', () => {
    expect(clientIpOf({ sourceIp: '203.0.113.7' })).toBe('203.0.113.7');
    expect(clientIpOf({ sourceIp: '2001:DB8:0:0:0:0:0:1' })).toBe('2001:db8::1');
    expect(clientIpOf({ sourceIp: '::ffff:192.0.2.1' })).toBe('192.0.2.1');
  });

  it('never trusts X-Forwarded-For, which the client writes', () => {
    expect(clientIpOf({ sourceIp: '203.0.113.7', forwardedFor: '198.51.100.1' })).toBe(
      '203.0.113.7',
    );
    expect(clientIpOf({ forwardedFor: '198.51.100.1' })).toBeUndefined();
  });

  it('is unknown for a missing or invalid source IP', () => {
    expect(clientIpOf({})).toBeUndefined();
    expect(clientIpOf({ sourceIp: '' })).toBeUndefined();
    expect(clientIpOf({ sourceIp: 'test-invoke-source-ip' })).toBeUndefined();
    expect(clientIpOf({ sourceIp: '256.0.0.1' })).toBeUndefined();
  });
});

describe('originAllowed', () => {
  const allowed = ['https://shop.example.com', 'http://localhost:3000'];

  it('allows everyone when the list is empty, even without Origin or Referer', () => {
    expect(originAllowed([])).toBe(true);
    expect(originAllowed([], 'https://evil.example')).toBe(true);
  });

  it('matches the Origin header after normalizing it', () => {
    expect(originAllowed(allowed, 'https://shop.example.com')).toBe(true);
    expect(originAllowed(allowed, 'HTTPS://SHOP.EXAMPLE.COM:443')).toBe(true);
    expect(originAllowed(allowed, 'http://localhost:3000')).toBe(true);
  });

  it('refuses other origins, other schemes and other ports', () => {
    expect(originAllowed(allowed, 'https://evil.example')).toBe(false);
    expect(originAllowed(allowed, 'http://shop.example.com')).toBe(false);
    expect(originAllowed(allowed, 'http://localhost:3001')).toBe(false);
    expect(originAllowed(allowed, 'https://shop.example.com.evil.example')).toBe(false);
  });

  it('refuses the opaque null origin, even with an allowed Referer', () => {
    expect(originAllowed(allowed, 'null', 'https://shop.example.com/contact')).toBe(false);
  });

  it('lets Origin decide when both are present', () => {
    expect(originAllowed(allowed, 'https://evil.example', 'https://shop.example.com/')).toBe(false);
    expect(originAllowed(allowed, 'https://shop.example.com', 'https://evil.example/')).toBe(true);
  });

  it('falls back to the origin of the Referer without Origin', () => {
    expect(originAllowed(allowed, undefined, 'https://shop.example.com/contact?x=1#f')).toBe(true);
    expect(originAllowed(allowed, '', 'https://shop.example.com/contact')).toBe(true);
    expect(
      originAllowed(allowed, undefined, 'https://evil.example/?https://shop.example.com'),
    ).toBe(false);
    expect(originAllowed(allowed, undefined, 'not a url')).toBe(false);
  });

  it('refuses a locked form to a client sending neither header', () => {
    expect(originAllowed(allowed)).toBe(false);
    expect(originAllowed(allowed, '', '')).toBe(false);
  });
});

describe('isBlocked', () => {
  const form = { blockedIps: ['203.0.113.7', '2001:db8::1'], blockedCountries: ['FR'] };

  it('blocks a listed IP or a listed country', () => {
    expect(isBlocked(form, '203.0.113.7', 'DE')).toBe(true);
    expect(isBlocked(form, '2001:db8::1')).toBe(true);
    expect(isBlocked(form, '198.51.100.1', 'FR')).toBe(true);
    expect(isBlocked(form, undefined, 'FR')).toBe(true);
  });

  it('lets through unlisted and unknown visitors', () => {
    expect(isBlocked(form, '203.0.113.8', 'DE')).toBe(false);
    expect(isBlocked(form)).toBe(false);
    expect(isBlocked({ blockedIps: [], blockedCountries: [] }, '203.0.113.7', 'FR')).toBe(false);
  });
});

describe('isBlocked with CIDR ranges', () => {
  const blocking = (...blockedIps: string[]) => ({ blockedIps, blockedCountries: [] });

  it('blocks every address of an IPv4 range and none next to it', () => {
    const form = blocking('198.51.100.0/24', '203.0.113.64/27');
    for (const ip of ['198.51.100.0', '198.51.100.77', '198.51.100.255', '203.0.113.64']) {
      expect(isBlocked(form, ip), ip).toBe(true);
    }
    expect(isBlocked(form, '203.0.113.95')).toBe(true);
    for (const ip of ['198.51.99.255', '198.51.101.0', '203.0.113.63', '203.0.113.96']) {
      expect(isBlocked(form, ip), ip).toBe(false);
    }
  });

  it('blocks every address of an IPv6 range and none next to it', () => {
    const form = blocking('2001:db8:1::/48', '2001:db8:ff00::/40');
    expect(isBlocked(form, '2001:db8:1::1')).toBe(true);
    expect(isBlocked(form, '2001:db8:1:ffff:ffff:ffff:ffff:ffff')).toBe(true);
    expect(isBlocked(form, '2001:db8:ffab::9')).toBe(true);
    expect(isBlocked(form, '2001:db8:2::1')).toBe(false);
    expect(isBlocked(form, '2001:db8:0:ffff::1')).toBe(false);
    expect(isBlocked(form, '2001:db8:fe00::1')).toBe(false);
  });

  it('matches the stored form of a mapped range against the IPv4 visitor it maps', () => {
    const form = blocking(canonicalIpOrRange('::ffff:192.0.2.0/120')!);
    expect(isBlocked(form, clientIpOf({ sourceIp: '::ffff:192.0.2.44' }))).toBe(true);
    expect(isBlocked(form, clientIpOf({ sourceIp: '192.0.2.200' }))).toBe(true);
    expect(isBlocked(form, clientIpOf({ sourceIp: '192.0.3.1' }))).toBe(false);
  });

  it('keeps families apart: an IPv6 range never blocks an IPv4 visitor, nor the reverse', () => {
    expect(isBlocked(blocking('::/0'), '2001:db8::1')).toBe(true);
    expect(isBlocked(blocking('::/0'), '203.0.113.7')).toBe(false);
    expect(isBlocked(blocking('0.0.0.0/0'), '203.0.113.7')).toBe(true);
    expect(isBlocked(blocking('0.0.0.0/0'), '2001:db8::1')).toBe(false);
    expect(isBlocked(blocking('0.0.0.0/0'), '::1')).toBe(false);
  });

  it('still matches single entries next to ranges, and never an unknown visitor', () => {
    const form = blocking('10.0.0.0/8', '203.0.113.7', '2001:db8::1');
    expect(isBlocked(form, '203.0.113.7')).toBe(true);
    expect(isBlocked(form, '2001:db8::1')).toBe(true);
    expect(isBlocked(form, '2001:db8::2')).toBe(false);
    expect(isBlocked(form, undefined)).toBe(false);
    expect(isBlocked(form, 'not an address')).toBe(false);
  });

  it('checks a list of 1,000 ranges in a few milliseconds', () => {
    const ranges = Array.from({ length: 1000 }, (_, i) => `2001:db8:${i.toString(16)}::/48`);
    const form = blocking(...ranges);
    expect(isBlocked(form, '2001:db8:3e7:1::1')).toBe(true);
    const started = performance.now();
    for (let i = 0; i < 20; i++) expect(isBlocked(form, '2001:db9::1')).toBe(false);
    // About 1–2 ms a call (each range parsed once); the bound only catches a gross slowdown.
    expect((performance.now() - started) / 20).toBeLessThan(50);
  });
});

describe('visitorNetwork: what the per-IP rate limit counts by', () => {
  it('is the address itself for IPv4', () => {
    expect(visitorNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(visitorNetwork(clientIpOf({ sourceIp: '::ffff:203.0.113.7' })!)).toBe('203.0.113.7');
  });

  it('is the /64 for IPv6: every address of one /64 gives the same value', () => {
    expect(visitorNetwork('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(visitorNetwork('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(visitorNetwork('2001:db8:1:2:a1b2:c3d4:e5f6:789')).toBe('2001:db8:1:2::/64');
    expect(visitorNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(visitorNetwork('2001:db8::1')).toBe('2001:db8::/64');
    expect(visitorNetwork('::1')).toBe('::/64');
  });
});
