import { createHmac } from 'node:crypto';
import { visitorNetwork } from './ip-ranges.ts';

/** The part of a user agent that tells visitors apart; longer ones are cut here. */
export const VISITOR_AGENT_MAX = 1024;

/**
 * Who a visitor is when the service needs "the same visitor" without keeping
 * anything about them (docs/submit.md#link-spam-and-duplicates, the view
 * beacon in docs/analytics.md#summary): the address (an IPv6 visitor by the
 * /64 it posts from, as the rate limits count) and the user agent. `ip` is
 * canonical (`canonicalIp`); a request without one is told apart by its
 * user agent alone.
 */
export function visitorIdentity(ip: string | undefined, userAgent: string): string {
  return `${ip ? visitorNetwork(ip) : ''}\n${userAgent.slice(0, VISITOR_AGENT_MAX)}`;
}

/**
 * The visitor as a keyed hash (HMAC-SHA-256 under the deployment's secret,
 * 128 bits): it goes into the duplicate mark, which is kept 24 hours, and
 * without the secret no address can be tried against it. Made from the
 * request, so it works the same with `dontStoreIp`; never stored as such.
 */
export function keyedVisitor(secret: string, identity: string): string {
  return createHmac('sha256', secret).update(`same-visitor:${identity}`).digest('hex').slice(0, 32);
}
