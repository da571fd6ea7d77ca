import * as z from 'zod/mini';
import { normalizeOrigin } from './addresses.ts';
import { isCountryCode } from './country-codes.ts';
import { canonicalIpOrRange } from './ip-ranges.ts';

export { canonicalIp, normalizeOrigin } from './addresses.ts';
export { canonicalIpOrRange } from './ip-ranges.ts';

/**
 * The three lists that decide who may post: allowed websites, blocked IPs and
 * blocked countries. Each entry is stored in the one form the submit endpoint
 * compares against: a single address matches by string equality, a range
 * by its network address and prefix (ip-ranges.ts). The normalizers
 * themselves are in addresses.ts and ip-ranges.ts, which the submit path
 * imports without zod.
 */

export const MAX_ALLOWED_ORIGINS = 50;
export const MAX_BLOCKED_IPS = 1000;
export const MAX_BLOCKED_COUNTRIES = 300;

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
  z.pipe(
    z.array(z.string().check(z.trim())).check(z.maxLength(max)),
    z.transform((values, ctx) => {
      const out: string[] = [];
      values.forEach((value, index) => {
        const normalized = value.length > entryMax ? undefined : normalize(value);
        if (normalized === undefined) {
          ctx.issues.push({ code: 'custom', path: [index], message, input: value });
        } else {
          out.push(normalized);
        }
      });
      return unique(out);
    }),
  );

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
