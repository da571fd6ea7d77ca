import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import * as z from 'zod';
import { isCountryCode } from './country-codes.ts';
import { spellAddress } from './ip-ranges.ts';

/**
 * The three lists that decide who may post: allowed websites, blocked IPs and
 * blocked countries. Each entry is stored in the one form the submit endpoint
 * compares against: a single address matches by string equality, a range
 * by its network address and prefix (ip-ranges.ts).
 */

export const MAX_ALLOWED_ORIGINS = 50;
export const MAX_BLOCKED_IPS = 1000;
export const MAX_BLOCKED_COUNTRIES = 300;

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

/** A prefix length as people write it: decimal, no sign, no leading zero. */
const PREFIX_LENGTH = /^(0|[1-9][0-9]{0,2})$/;

/**
 * A block list entry in its stored form: a single address as `canonicalIp`
 * writes it, or a CIDR range (`203.0.113.0/24`, `2001:db8::/32`) as its
 * network address (host bits cleared, so `10.1.2.3/8` is `10.0.0.0/8`)
 * and prefix length. The address part must pass the same strict check as a
 * single address. An IPv4-mapped range of /96 or longer is the IPv4 range it
 * maps (`::ffff:192.0.2.0/120` is `192.0.2.0/24`), as a mapped visitor is
 * read as IPv4 (a shorter one stays IPv6 and so matches no IPv4 visitor);
 * a range of one address (`/32`, `/128`) is stored as that address, so it
 * matches exactly as a single entry always has.
 */
export function canonicalIpOrRange(value: string): string | undefined {
  const slash = value.indexOf('/');
  if (slash === -1) return canonicalIp(value);
  const written = value.slice(0, slash);
  const prefixText = value.slice(slash + 1);
  const address = canonicalIp(written);
  if (address === undefined || !PREFIX_LENGTH.test(prefixText)) return undefined;
  const writtenAsIpv6 = isIP(written) === 6;
  let prefix = Number(prefixText);
  if (prefix > (writtenAsIpv6 ? 128 : 32)) return undefined;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(address);
  if (writtenAsIpv6 && parsed instanceof ipaddr.IPv4) {
    // IPv4-mapped: canonicalIp spelt the address as IPv4.
    if (prefix >= 96) prefix -= 96;
    else parsed = parsed.toIPv4MappedAddress();
  }
  const bits = parsed.kind() === 'ipv4' ? 32 : 128;
  if (prefix === bits) return spellAddress(parsed);
  const network =
    parsed.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${parsed.toString()}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toNormalizedString()}/${prefix}`);
  return `${spellAddress(network)}/${prefix}`;
}

const unique = (values: string[]) => [...new Set(values)];

/**
 * A list whose entries are normalized one by one; an entry that does not
 * normalize is an issue at its index. The limit counts entries as sent
 * (duplicates included), so it bounds the work, not just what is stored.
 * Every check is in the transform so one bad entry never hides the others;
 * the per-entry cap only bounds the input handed to the normalizer.
 */
const normalizedList = (
  max: number,
  entryMax: number,
  normalize: (value: string) => string | undefined,
  message: string,
) =>
  z
    .array(z.string().trim())
    .max(max)
    .transform((values, ctx) => {
      const out: string[] = [];
      values.forEach((value, index) => {
        const normalized = value.length > entryMax ? undefined : normalize(value);
        if (normalized === undefined) {
          ctx.addIssue({ code: 'custom', path: [index], message, input: value });
        } else {
          out.push(normalized);
        }
      });
      return unique(out);
    });

export const allowedOriginsInput = normalizedList(
  MAX_ALLOWED_ORIGINS,
  2048,
  normalizeOrigin,
  'Must be an http:// or https:// website address',
);

export const blockedIpsInput = normalizedList(
  MAX_BLOCKED_IPS,
  64,
  canonicalIpOrRange,
  'Must be an IPv4 or IPv6 address, or a CIDR range such as 203.0.113.0/24',
);

export const blockedCountriesInput = normalizedList(
  MAX_BLOCKED_COUNTRIES,
  16,
  (value) => {
    const code = value.toUpperCase();
    return isCountryCode(code) ? code : undefined;
  },
  'Must be an ISO 3166-1 alpha-2 country code',
);
