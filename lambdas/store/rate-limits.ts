import { createHash } from 'node:crypto';
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

/**
 * The views beacon's limit on one visitor of one form (`visitorIdentity`: the
 * address, an IPv6 visitor by its /64, and the user agent), hashed so the
 * item that expires two minutes later names neither.
 */
export function viewVisitorScope(formId: string, visitor: string): string {
  return `VIEW#${formId}#${visitorHash(visitor)}`;
}

/** A visitor as 128 bits of its SHA-256: a rate window's key never names the address or agent. */
const visitorHash = (visitor: string) =>
  createHash('sha256').update(visitor).digest('hex').slice(0, 32);

/**
 * The step beacons' limit on one visitor of one form (docs/analytics.md#the-funnel):
 * a budget of its own, so a visitor going through a form's pages never uses
 * up the views of their next page loads; hashed like the views' scope.
 */
export function stepVisitorScope(formId: string, visitor: string): string {
  return `STEP#${formId}#${visitorHash(visitor)}`;
}
