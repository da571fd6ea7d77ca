import { isIP } from 'node:net';

/**
 * One spelling per website origin and per IP address: what the submit path
 * compares a visitor against and what the access lists store (access-lists.ts
 * validates the lists with these). No zod here, so the submit function,
 * which only compares, does not bundle it; and no ipaddr.js (ranges are
 * ip-ranges.ts's), so what only spells an origin or an address (the team
 * routes through submit-rules.ts, the form pages, the view counter) does
 * not bundle it either: 12.8 KB.
 */

/**
 * `scheme://host[:port]` as a browser sends it in `Origin`: the URL parser
 * lower-cases the host, turns IDNs into punycode and drops the default port;
 * path, query, fragment and credentials are not part of an origin.
 */
export function normalizeOrigin(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.hostname === '') return undefined;
  return url.origin;
}

/**
 * Whether `url` is a web page on one of `allowedOrigins`, listed: unlike a
 * post's check, an empty list allows nothing (an address a post named
 * proves no site is the form's).
 */
export function onAllowedSite(allowedOrigins: readonly string[], url: string): boolean {
  const origin = normalizeOrigin(url.trim());
  return origin !== undefined && allowedOrigins.includes(origin);
}

/**
 * One spelling per address, so a block list entry matches however the client
 * wrote it: IPv6 compressed and lower-case (RFC 5952, as the URL parser
 * serializes it), IPv4-mapped IPv6 as plain IPv4 (the same visitor). Zone ids
 * and CIDR ranges are refused: a visitor's address never has them (block
 * list entries may be ranges: `canonicalIpOrRange`).
 */
export function canonicalIp(value: string): string | undefined {
  const version = isIP(value);
  if (version === 4) return value;
  if (version !== 6 || value.includes('%')) return undefined;
  const host = new URL(`http://[${value}]`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return host;
  const high = Number.parseInt(mapped[1]!, 16);
  const low = Number.parseInt(mapped[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}
