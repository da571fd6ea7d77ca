import { createHmac } from 'node:crypto';
import { withoutInvisibleCharacters } from './visible-text.ts';
import { MIN_SECRET_LENGTH } from './visitor-ip.ts';

/**
 * The email index (docs/privacy.md#how-a-person-is-found): each stored
 * submission names, under a keyed hash, every email address it holds, so
 * erase and export by email find a person's submissions without reading the
 * team's. No address is kept in clear in the index.
 */

/** An address as people type one: no space, one `@` with text either side. */
export const ADDRESS_PATTERN = /^[^\s@]+@[^\s@]+$/;

/** RFC 5321's longest path; longer answers are not addresses. */
export const MAX_ADDRESS_LENGTH = 254;

/**
 * Index entries written per submission at most: each costs a write in the
 * storing transaction, so a post full of addresses cannot make a post dear.
 */
export const MAX_INDEXED_ADDRESSES = 10;

/**
 * An address as the index compares it: without the characters nobody sees
 * (zero-width space, soft hyphen, word joiner, bidi marks: the rule the mail
 * path and the duplicate check use too), trimmed, in lower case. So
 * `ada@example.com` followed by a zero-width space is Ada's address, as the
 * emails sent to it and the email field's check already take it.
 */
export function foldedAddress(text: string): string {
  return withoutInvisibleCharacters(text).trim().toLowerCase();
}

/** The address as compared (foldedAddress); undefined when the text is not one. */
export function normalAddress(text: string): string | undefined {
  const address = foldedAddress(text);
  if (address.length > MAX_ADDRESS_LENGTH || !ADDRESS_PATTERN.test(address)) return undefined;
  return address;
}

/**
 * The addresses a submission holds (docs/privacy.md#how-a-person-is-found):
 * `_replyto` first, then every answer that is an address as a whole (an
 * `email` field's answer is one), without repeats, at most
 * MAX_INDEXED_ADDRESSES.
 */
export function addressesOf(data: Record<string, string>, replyTo?: string): string[] {
  const found = new Set<string>();
  for (const text of [replyTo ?? '', ...Object.values(data)]) {
    if (found.size >= MAX_INDEXED_ADDRESSES) break;
    if (typeof text !== 'string') continue;
    const address = normalAddress(text);
    if (address) found.add(address);
  }
  return [...found];
}

/**
 * HMAC-SHA-256 of the address under a key only this team's email index uses
 * (an HMAC of the team id under the deployment's keyed-hash secret, with a
 * label of its own, so it matches no visitor-address hash), cut to 128 bits
 * (32 hex digits): the same address gives the same hash in one team, and no
 * address can be read back from it without the secret.
 */
export function emailHash(secret: string, teamId: string, address: string): string {
  return keyedHashOf(secret, teamId, foldedAddress(address));
}

/**
 * The keyed hash of `text` exactly as given, not folded: for the reindex,
 * which finds the entries older rules wrote (an address trimmed and lower
 * cased, its invisible characters kept) to remove them.
 */
export function keyedHashOf(secret: string, teamId: string, text: string): string {
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`the keyed-hash secret must hold at least ${MIN_SECRET_LENGTH} characters`);
  }
  const teamKey = createHmac('sha256', secret).update(`email-index:${teamId}`).digest();
  return createHmac('sha256', teamKey).update(text).digest('hex').slice(0, 32);
}
