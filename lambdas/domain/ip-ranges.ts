import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Address ranges: the /64 a visitor is rate-limited by, and whether a
 * visitor falls in a block list that mixes single addresses and CIDR ranges.
 * Parsing and matching are ipaddr.js's; every input here is already
 * canonical (`canonicalIp`, `canonicalIpOrRange` in addresses.ts), so its
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
