import { createHash } from 'node:crypto';
import { ServiceError } from './errors.ts';

/**
 * The `Idempotency-Key` of a post (docs/submit.md#idempotency-key): what a
 * key may be, what it is stored as, and the fingerprint that tells a retry
 * of the same post from another post under the same key.
 */

/** The longest key: the IETF draft's sf-string leaves the length to the server. */
export const IDEMPOTENCY_KEY_MAX = 255;

const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

const invalidKey = () =>
  new ServiceError(
    'invalid_request',
    `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters (no spaces), sent once, bare or as a quoted string`,
  );

/**
 * The key of the header's value, or undefined when the post has none. The
 * draft (draft-ietf-httpapi-idempotency-key-header) makes the field an
 * sf-string (`"8e03…"`); most clients send the key bare (`8e03…`): both
 * name the same key. The header's values as received, one a line: sent
 * twice, even with the same key, it is refused like a malformed key (the
 * draft's field is a single value). A repeated header that a proxy joined
 * into one line holds a comma and a space, which no key holds either.
 */
export function idempotencyKeyOf(
  header: string | readonly string[] | undefined,
): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string') {
    if (header.length > 1) throw invalidKey();
    return header.length === 0 ? undefined : idempotencyKeyOf(header[0]);
  }
  const raw = header.trim();
  if (raw.length > IDEMPOTENCY_KEY_MAX * 2 + 2) throw invalidKey();
  const key = raw.startsWith('"') ? unquoted(raw) : raw;
  if (key === undefined || key.length > IDEMPOTENCY_KEY_MAX || !VISIBLE_ASCII.test(key)) {
    throw invalidKey();
  }
  return key;
}

/** An RFC 8941 sf-string's content (`\"` and `\\` the only escapes), or undefined when malformed. */
function unquoted(raw: string): string | undefined {
  let key = '';
  for (let i = 1; i < raw.length; i++) {
    const char = raw[i]!;
    if (char === '"') return i === raw.length - 1 ? key : undefined;
    if (char === '\\') {
      const next = raw[++i];
      if (next !== '"' && next !== '\\') return undefined;
      key += next;
    } else {
      key += char;
    }
  }
  return undefined;
}

/** What a key is stored under: its hash, so a key (a client's secret) is never kept in clear. */
export function idempotencyKeyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** One received file as the fingerprint sees it. */
export interface FingerprintFile {
  field: string;
  name: string;
  mime: string;
  content: Uint8Array;
}

/**
 * The post as the form receives it: its answers in body order and its files'
 * names, types and bytes. Computed on the parsed body, so the same answers
 * sent again under a new multipart boundary, or as JSON instead of
 * urlencoded, are the same post.
 */
export function postFingerprint(
  pairs: readonly (readonly [string, string])[],
  files: readonly FingerprintFile[],
): string {
  const hash = createHash('sha256').update(JSON.stringify(pairs));
  for (const file of files) {
    hash.update(JSON.stringify([file.field, file.name, file.mime, file.content.length]));
    hash.update(file.content);
  }
  return hash.digest('hex');
}

/**
 * The first answer to a post stored under a key, as much of it as a replay
 * needs: JSON's `submissionId` and `warning`, or for a browser the page or
 * the redirect's `Location` (the thank-you page is drawn again from the
 * form's texts).
 */
export interface RecordedAnswer {
  submissionId: string;
  nearLimit: boolean;
  /** The first post asked for a page (docs/submit.md#answers). */
  page: boolean;
  /** The 303's target, for a page answered by a redirect. */
  location?: string;
  /** The post waits for its visitor's confirmation (docs/submit.md#confirm-by-email). */
  pending?: true;
}

export const idempotencyKeyReused = () =>
  new ServiceError(
    'idempotency_key_reused',
    'This Idempotency-Key was used for a different post to this form; send a new key for a new post',
  );
