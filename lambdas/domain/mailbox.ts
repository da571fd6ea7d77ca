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
