import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { spellAddress } from './ip-ranges.ts';

/**
 * One spelling per website origin and per IP address: what the submit path
 * compares a visitor against and what the access lists store (access-lists.ts
 * validates the lists with these). No zod here, so the submit function,
 * which only compares, does not bundle it.
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
