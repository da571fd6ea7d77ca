import { visitorNetwork } from '#domain/ip-ranges.ts';

// The counter itself is in request-counts.ts, which the management routes
// import without the address parsing (ipaddr.js) the visitor scope needs.
export { admitRequest, countRequest, managementKeyScope } from './request-counts.ts';

/** The submit endpoint's limit on every post to one form. */
export function submitFormScope(formId: string): string {
  return `SUBMIT#FORM#${formId}`;
}

/**
 * The submit endpoint's per-visitor limit on one form. `ip` is canonical
 * (`canonicalIp`); an IPv4 visitor is counted by address, an IPv6 visitor by
 * the /64 it posts from (`visitorNetwork`), so rotating addresses inside
 * one's own /64 does not reset the count.
 */
export function submitVisitorScope(formId: string, ip: string): string {
  return `SUBMIT#IP#${formId}#${visitorNetwork(ip)}`;
}
