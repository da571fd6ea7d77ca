import { isIP } from 'node:net';
import * as z from 'zod';
import { isCountryCode } from './country-codes.ts';

/**
 * The three lists that decide who may post: allowed websites, blocked IPs and
 * blocked countries. Each entry is stored in the one form the submit endpoint
 * compares against, so a match there is plain string equality.
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
 * and CIDR ranges are refused: a visitor's address never has them.
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
  canonicalIp,
  'Must be a single IPv4 or IPv6 address',
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
