import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { canonicalIp } from './addresses.ts';

/**
 * Address ranges: the /64 a visitor is rate-limited by, and whether a
 * visitor falls in a block list that mixes single addresses and CIDR ranges.
 * Parsing and matching are ipaddr.js's; every input here is already
 * canonical (`canonicalIp` in addresses.ts, `canonicalIpOrRange` below), so its
 * lenient parser (octal and hex IPv4, zone ids) never sees what it would
 * read differently from the strict `node:net` check that validated it.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/** RFC 5952 spelling, as the URL parser writes it (the spelling `canonicalIp` uses). */
export function spellAddress(address: Address): string {
  if (address.kind() === 'ipv4') return address.toString();
  return new URL(`http://[${address.toNormalizedString()}]`).hostname.slice(1, -1);
}

/**
 * What the per-IP rate limit counts by: an IPv4 address itself, the /64
 * prefix of an IPv6 address (`2001:db8:1:2::/64`). A /64 is the smallest
 * block a provider hands one subscriber, who can pick any address in it,
 * so counting per address would let one client post 2^64 times as often.
 * `ip` is a canonical address (`canonicalIp`: IPv4-mapped IPv6 is already
 * IPv4); anything else is returned unchanged.
 */
export function visitorNetwork(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  return `${spellAddress(ipaddr.IPv6.networkAddressFromCIDR(`${ip}/64`))}/64`;
}

/** A stored `address/prefix` entry, parsed; undefined for anything else. */
function parseRange(entry: string): Range | undefined {
  try {
    return entry.includes(':') ? ipaddr.IPv6.parseCIDR(entry) : ipaddr.IPv4.parseCIDR(entry);
  } catch {
    return undefined;
  }
}

/**
 * Whether `ip` (canonical, from `clientIpOf`) is one of `entries` (canonical
 * block list entries: single addresses and `network/prefix` ranges). Exact
 * entries are found by string equality first; only then is the visitor
 * parsed, once, and each range parsed once and matched. An IPv6 range
 * matches IPv6 visitors only and an IPv4 range IPv4 visitors only: an
 * IPv4-mapped range was stored as IPv4, as a mapped visitor is read as IPv4.
 */
export function ipInList(entries: readonly string[], ip: string): boolean {
  if (entries.includes(ip)) return true;
  const version = isIP(ip);
  if (version === 0) return false;
  let visitor: Address | undefined;
  for (const entry of entries) {
    // Ranges of the visitor's family only (IPv6 entries are the ones with a colon).
    if (!entry.includes('/') || entry.includes(':') !== (version === 6)) continue;
    visitor ??= ipaddr.parse(ip);
    const range = parseRange(entry);
    if (range && range[0].kind() === visitor.kind() && visitor.match(range)) return true;
  }
  return false;
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
