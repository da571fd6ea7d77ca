import { createHash } from 'node:crypto';
import type { Submission } from './submission-model.ts';
import { withoutInvisibleCharacters } from './visible-text.ts';

/**
 * The spam marks of processing step 10 (docs/submit.md#link-spam-and-duplicates):
 * link spam, decided here from the answers alone, and the fingerprint the store uses to find a duplicate post.
 * Spam is stored (in the spam folder), never dropped, so a false positive
 * costs a look in that folder, not a lost message.
 */

/** The marker answer set by the field checks; not part of what the visitor sent. */
const INVALID_MARKER = '_invalid';

/**
 * Spam received up to this moment is past its retention and is deleted
 * (the spam purger; here rather than with the submit rules, whose origin
 * checks would bring ipaddr.js into its bundle).
 */
export function spamExpiredUpTo(now: Date, retentionDays: number): string {
  return new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
}

/**
 * Whether stored spam is past its retention at `upTo` (`spamExpiredUpTo`):
 * counted from when the owner moved it to spam, or else from its receipt,
 * so moving an old submission to spam does not make it go at once.
 */
export function spamExpired(
  submission: Pick<Submission, 'isSpam' | 'createdAt' | 'spamAt'>,
  upTo: string,
): boolean {
  return submission.isSpam && (submission.spamAt ?? submission.createdAt) <= upTo;
}

/** Three links in one post is past what a contact message plausibly carries. */
export const LINK_SPAM_THRESHOLD = 3;

// `http(s)://…`, or a bare `www.…` that is not already part of such a URL or an address.
const LINK = /https?:\/\/[^\s"'<>]+|(?<![\w./@-])www\.[^\s"'<>]+/gi;
// Forum BBCode and HTML anchors: a plain-text form never needs either.
const LINK_MARKUP = /\[(?:url|link)[=\]]|<a\s[^>]*href\s*=/i;

/** Names of fields that hold a person's name, with case and separators removed. */
const NAME_FIELDS = new Set([
  'name',
  'yourname',
  'fullname',
  'firstname',
  'lastname',
  'middlename',
  'surname',
  'givenname',
  'familyname',
  'fname',
  'lname',
]);

const isNameField = (name: string) => NAME_FIELDS.has(name.toLowerCase().replace(/[^a-z]/g, ''));

/**
 * Link spam, the rule:
 * - any BBCode (`[url=`, `[url]`, `[link=`) or HTML anchor (`<a … href=`)
 *   markup in any answer; or
 * - a link (`http(s)://` or `www.`) in a field that holds a person's name
 *   (`name`, `first_name`, `lastName`, `Full Name`, `fname`, …: the field
 *   name with case, digits and separators removed is one of a fixed list,
 *   so `username` or `company_name` do not count); or
 * - 3 or more links across all answers.
 * One or two pasted links in a message stay clean; `_invalid` is ignored.
 */
export function isLinkSpam(data: Record<string, string>): boolean {
  let links = 0;
  for (const [name, value] of Object.entries(data)) {
    if (name === INVALID_MARKER) continue;
    if (LINK_MARKUP.test(value)) return true;
    const found = value.match(LINK)?.length ?? 0;
    if (found > 0 && isNameField(name)) return true;
    links += found;
    if (links >= LINK_SPAM_THRESHOLD) return true;
  }
  return false;
}

/**
 * SHA-256 hex of the form id, the visitor and the answers as a person reads
 * them: a duplicate is the same answers from the same visitor
 * (docs/submit.md#link-spam-and-duplicates), so two people who give the same
 * score are two answers. `visitor` is `keyedVisitor` of the request (its
 * address, an IPv6 one by /64, and user agent, under the deployment's
 * secret). Each answer's name and value in Unicode NFKC, case-folded, without
 * format and control characters (zero-width, bidi marks, BOM, NUL), runs of
 * white space as one space, trimmed; empty answers and `_invalid` left out;
 * names sorted (by code unit, locale-independent). So the same answers sent
 * in another field order or encoding, in other case, with stray spaces or
 * hidden characters, match. JSON encoding keeps `a=b,c` apart from `a,b=c`.
 */
export function duplicateFingerprint(
  formId: string,
  visitor: string,
  data: Record<string, string>,
): string {
  const answers = Object.entries(data)
    .filter(([name]) => name !== INVALID_MARKER)
    .map(([name, value]) => [comparable(name), comparable(value)] as const)
    .filter(([, value]) => value !== '')
    .sort(([a, x], [b, y]) => compareUnits(a, b) || compareUnits(x, y));
  return createHash('sha256')
    .update(JSON.stringify([formId, visitor, answers]))
    .digest('hex');
}

const compareUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The text two people would call the same answer. Upper- then lower-casing
 * approximates Unicode case folding (`ß` → `ss`, `ﬁ` → `fi` after NFKC)
 * without a folding table.
 */
function comparable(text: string): string {
  return withoutInvisibleCharacters(text.normalize('NFKC'))
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKC')
    .replace(/\s+/gu, ' ')
    .trim();
}
