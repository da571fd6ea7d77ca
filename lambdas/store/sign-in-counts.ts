import { createHash } from 'node:crypto';
import { canonicalIp } from '#domain/addresses.ts';
import { visitorNetwork } from '#domain/ip-ranges.ts';
import { retryAfterSeconds, windowAt } from '#domain/rate-limit.ts';
import {
  SIGN_IN_ADDRESS_WINDOW_SECONDS,
  SIGN_INS_PER_ADDRESS_AND_IP_PER_HOUR,
  SIGN_INS_PER_ADDRESS_PER_WINDOW,
  SIGN_INS_PER_IP_PER_HOUR,
  VERIFIES_PER_IP_PER_MINUTE,
} from '#domain/sign-in-limits.ts';
import { admitRequest } from './request-counts.ts';

/**
 * The sign-in limits' windows (docs/people.md#sign-in-bounds). A
 * requester is counted as the submit path counts a visitor
 * (`visitorNetwork`): an IPv4 address, or the /64 of an IPv6 address, so
 * rotating addresses inside one's own /64 resets nothing. Addresses are
 * hashed: no email address is kept in a key.
 */

function requester(ip: string | null): string {
  if (!ip) return 'unknown';
  return visitorNetwork(canonicalIp(ip) ?? ip);
}

function hashed(email: string): string {
  return createHash('sha256').update(email).digest('hex');
}

/** Sign-in emails to one address from everyone, per window of a link's lifetime. */
export function signInAddressScope(email: string): string {
  return `SIGNIN-TO#${hashed(email)}`;
}

/** Sign-in emails to one address asked for by one requester. */
export function signInAddressIpScope(email: string, ip: string | null): string {
  return `SIGNIN-FROM#${hashed(email)}#${requester(ip)}`;
}

/** Sign-in emails asked for by one requester, whatever the address. */
export function signInIpScope(ip: string | null): string {
  return `SIGNIN-IP#${requester(ip)}`;
}

/** Verifications tried by one requester. */
export function verifyIpScope(ip: string | null): string {
  return `VERIFY-IP#${requester(ip)}`;
}

export type Admission = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/**
 * Counts one sign-in email to `email` asked for from `ip`: per requester
 * (`anyAddress`: an anonymous request, not an owner's invitation), per
 * address and requester, then per address from everyone. The last counts
 * only requests the others admitted, so when it refuses, the link of the
 * last email it admitted still works.
 */
export async function admitSignInEmail(
  email: string,
  ip: string | null,
  now: number,
  options: { anyAddress: boolean },
): Promise<Admission> {
  const hour = windowAt(now, 3600);
  const [byRequester, byAddressAndRequester] = await Promise.all([
    options.anyAddress
      ? admitRequest(signInIpScope(ip), hour, SIGN_INS_PER_IP_PER_HOUR)
      : Promise.resolve(true),
    admitRequest(signInAddressIpScope(email, ip), hour, SIGN_INS_PER_ADDRESS_AND_IP_PER_HOUR),
  ]);
  if (!byRequester || !byAddressAndRequester) {
    return { admitted: false, retryAfterSeconds: retryAfterSeconds(hour, now) };
  }
  const window = windowAt(now, SIGN_IN_ADDRESS_WINDOW_SECONDS);
  if (!(await admitRequest(signInAddressScope(email), window, SIGN_INS_PER_ADDRESS_PER_WINDOW))) {
    return { admitted: false, retryAfterSeconds: retryAfterSeconds(window, now) };
  }
  return { admitted: true };
}

/** Counts one verification from `ip` (a minute's window). */
export async function admitVerify(ip: string | null, now: number): Promise<Admission> {
  const minute = windowAt(now, 60);
  if (await admitRequest(verifyIpScope(ip), minute, VERIFIES_PER_IP_PER_MINUTE)) {
    return { admitted: true };
  }
  return { admitted: false, retryAfterSeconds: retryAfterSeconds(minute, now) };
}
