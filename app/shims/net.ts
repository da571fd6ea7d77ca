import ipaddr from 'ipaddr.js';

/**
 * `node:net`'s isIP for the browser build: the domain's address checks
 * (blockedIps in the settings screen) run in the page with the same rules
 * the route applies, through ipaddr.js, which the route uses for ranges.
 */
export function isIP(value: string): 0 | 4 | 6 {
  if (ipaddr.IPv4.isValidFourPartDecimal(value)) return 4;
  if (!value.includes('%') && ipaddr.IPv6.isValid(value)) return 6;
  return 0;
}
