import { createHmac } from 'node:crypto';
import { MIN_SECRET_LENGTH } from './visitor-ip.ts';

/**
 * The mailbox an address reaches, for counting what is sent to it: lower
 * case; a `+tag` dropped (the common sub-addressing separator: a false merge
 * only makes a limit stricter, the safe way); for Gmail, whose mailboxes
 * ignore dots, the dots of the local part too, and `googlemail.com` read as
 * `gmail.com`. The email itself still goes to the address as written.
 */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

export function mailboxOf(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return address.trim().toLowerCase();
  let local = address.slice(0, at).trim().toLowerCase();
  let domain = address
    .slice(at + 1)
    .trim()
    .toLowerCase();
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOTLESS_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/**
 * The mailbox (`mailboxOf`) as the bounds on emails to visitors count it
 * (docs/delivery.md#auto-reply-limits): HMAC-SHA-256 under a key derived
 * from the deployment's keyed-hash secret with a label of its own, cut to
 * 128 bits (32 hex digits). One deployment-wide key, not a team's: the
 * per-mailbox bound spans every form of the deployment. No address, nor an
 * unkeyed hash of it (a dictionary of addresses would read that back), is
 * kept in a counter's key.
 */
export function mailboxHash(secret: string, mailbox: string): string {
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`the keyed-hash secret must hold at least ${MIN_SECRET_LENGTH} characters`);
  }
  const key = createHmac('sha256', secret).update('mailbox-bound:v1').digest();
  return createHmac('sha256', key).update(mailbox).digest('hex').slice(0, 32);
}
