import Bowser from 'bowser';
import { isbot } from 'isbot';
import { canonicalIp, normalizeOrigin } from './addresses.ts';
import { isCountryCode } from './country-codes.ts';
import { ipInList } from './ip-ranges.ts';
import type { DeviceClass } from './submission-model.ts';

/**
 * Who posted: device, country and address of the visitor, and whether the
 * form lets them post. The submit endpoint is an edge-optimized API, so the
 * `cloudfront-*` viewer headers are written by CloudFront, not by the client
 * (CloudFront replaces any the client sent).
 */

/** Header names lower-cased, as the submit handler collects them. */
export type VisitorHeaders = Record<string, string | undefined>;

/**
 * Real user agents stay well under this; the cap bounds the regex work on a
 * padded header, and a client able to pad it could write any UA anyway.
 */
const USER_AGENT_PARSE_MAX = 1024;

const isTrue = (value: string | undefined) => value?.trim().toLowerCase() === 'true';

/**
 * The visitor's device class, or undefined when nothing tells.
 *
 * - A User-Agent that `isbot` recognises is `bot` whatever else says. isbot
 *   also counts HTTP libraries and other non-browser agents (`curl/8.7.1`,
 *   `python-requests/…`, `node`, `PostmanRuntime/…`, any lone `name/version`)
 *   as bots: a script posting to the endpoint is stored as `bot`.
 * - Then CloudFront's viewer headers. Tablet is checked before mobile because
 *   CloudFront marks tablets as mobile too. A smart TV counts as `desktop`:
 *   a large screen that is not held in the hand.
 * - Without a CloudFront verdict, the User-Agent parsed by Bowser, with the
 *   same tv → `desktop` mapping, and Chrome OS as `desktop`. An empty or
 *   unrecognised agent is undefined.
 */
export function deviceClassOf(headers: VisitorHeaders): DeviceClass | undefined {
  const userAgent = (headers['user-agent'] ?? '').slice(0, USER_AGENT_PARSE_MAX).trim();
  if (userAgent !== '' && isbot(userAgent)) return 'bot';
  if (isTrue(headers['cloudfront-is-tablet-viewer'])) return 'tablet';
  if (isTrue(headers['cloudfront-is-mobile-viewer'])) return 'mobile';
  if (isTrue(headers['cloudfront-is-smarttv-viewer'])) return 'desktop';
  if (isTrue(headers['cloudfront-is-desktop-viewer'])) return 'desktop';
  // Bowser throws on an empty string.
  if (userAgent === '') return undefined;
  const parser = Bowser.getParser(userAgent, true);
  const fromPlatform = platformClass(parser.getPlatformType(true));
  if (fromPlatform) return fromPlatform;
  // Bowser names no platform for Chromebooks, which are laptops.
  return parser.getOSName() === Bowser.OS_MAP.ChromeOS ? 'desktop' : undefined;
}

function platformClass(type: string): DeviceClass | undefined {
  switch (type) {
    case 'bot':
    case 'mobile':
    case 'tablet':
    case 'desktop':
      return type;
    case 'tv':
      return 'desktop';
    default:
      return undefined;
  }
}

/** The viewer's country from CloudFront, upper-cased, when it is a real ISO 3166-1 code. */
export function countryOf(headers: VisitorHeaders): string | undefined {
  const code = headers['cloudfront-viewer-country']?.trim().toUpperCase();
  return code !== undefined && isCountryCode(code) ? code : undefined;
}

/**
 * The visitor's address, canonical so it compares equal to block list
 * entries; undefined when missing or not an IP.
 *
 * Only `sourceIp` (API Gateway's `requestContext.identity.sourceIp`) is
 * used: on an edge-optimized API it is already the viewer's address.
 * `forwardedFor` is accepted and deliberately ignored: X-Forwarded-For
 * starts with whatever the client wrote, so trusting it would let anyone
 * step around the IP block list and the per-IP rate limit.
 */
export function clientIpOf(request: {
  sourceIp?: string;
  forwardedFor?: string;
}): string | undefined {
  const { sourceIp } = request;
  return sourceIp ? canonicalIp(sourceIp.trim()) : undefined;
}

/**
 * Whether a post may come from the page it came from. An empty list allows
 * every site. Otherwise the `Origin` header decides when present (the
 * opaque `null` origin of sandboxed frames, `file:` pages and privacy
 * redirects never matches); without it, the origin of the `Referer`.
 * Neither present means not allowed: a non-browser client that sends
 * neither cannot post to a locked form.
 */
export function originAllowed(
  allowedOrigins: string[],
  originHeader?: string,
  refererHeader?: string,
): boolean {
  if (allowedOrigins.length === 0) return true;
  const origin = originHeader?.trim();
  const referer = refererHeader?.trim();
  let candidate: string | undefined;
  if (origin) {
    candidate = origin === 'null' ? undefined : normalizeOrigin(origin);
  } else if (referer) {
    candidate = normalizeOrigin(referer);
  }
  return candidate !== undefined && allowedOrigins.includes(candidate);
}

/**
 * Whether the form's block lists drop this visitor. Both lists hold
 * canonical values (see addresses.ts), so `ip` must come from
 * `clientIpOf` and `country` from `countryOf`; an unknown value never matches.
 * `blockedIps` mixes single addresses and CIDR ranges (`ipInList`).
 */
export function isBlocked(
  form: { blockedIps: string[]; blockedCountries: string[] },
  ip?: string,
  country?: string,
): boolean {
  return blockedBy(form, ip, country) !== undefined;
}

/** Which list drops the visitor, the address checked first; undefined when neither. */
export function blockedBy(
  form: { blockedIps: string[]; blockedCountries: string[] },
  ip?: string,
  country?: string,
): 'blocked_ip' | 'blocked_country' | undefined {
  if (ip !== undefined && ipInList(form.blockedIps, ip)) return 'blocked_ip';
  if (country !== undefined && form.blockedCountries.includes(country)) return 'blocked_country';
  return undefined;
}
