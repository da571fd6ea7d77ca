import { createHmac } from 'node:crypto';

/**
 * What a team keeps of a visitor's address (docs/people.md#visitor-addresses):
 * the address itself, or a keyed hash of it. Either way the submit endpoint's
 * block lists and rate limits act on the address in the request, before
 * anything is stored; a form's `dontStoreIp` stores nothing and wins over both.
 */
export const IP_STORAGE = ['address', 'keyedHash'] as const;
export type IpStorage = (typeof IP_STORAGE)[number];

/** Teams made before the setting keep addresses, as they always did. */
export const DEFAULT_IP_STORAGE: IpStorage = 'address';

/** The form of a stored hash: `hash:` and 16 hex digits (docs/people.md#visitor-addresses). */
export const VISITOR_HASH_PATTERN = /^hash:[0-9a-f]{16}$/;

/** The deployment's keyed-hash secret must hold at least this many characters. */
export const MIN_SECRET_LENGTH = 32;

/**
 * HMAC-SHA-256 of the address under a key only this team's hashes use (itself
 * an HMAC of the team id under the deployment's secret), cut to 64 bits: the
 * same address gives the same hash in one team, so a person sees "same
 * visitor" and a block by hash stays possible, and another team's hashes of
 * it differ. 64 bits keep a team's visitors apart (a clash is likely only
 * past four billion of them). Without the secret, which never leaves the
 * functions' configuration, a stored hash leads back to no address.
 */
export function visitorHash(secret: string, teamId: string, address: string): string {
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`the keyed-hash secret must hold at least ${MIN_SECRET_LENGTH} characters`);
  }
  const teamKey = createHmac('sha256', secret).update(`visitor-ip:${teamId}`).digest();
  const digest = createHmac('sha256', teamKey).update(address.trim().toLowerCase()).digest('hex');
  return `hash:${digest.slice(0, 16)}`;
}

/** What a submission's `meta.ip` holds; `secret` is read only when a hash is made. */
export function storedVisitorIp(
  address: string | undefined,
  choice: { dontStoreIp: boolean; ipStorage: IpStorage | undefined; teamId: string },
  secret: () => string,
): string | undefined {
  if (choice.dontStoreIp || !address) return undefined;
  if ((choice.ipStorage ?? DEFAULT_IP_STORAGE) === 'address') return address;
  return visitorHash(secret(), choice.teamId, address);
}
