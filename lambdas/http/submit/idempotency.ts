import { config } from '#config';
import { ServiceError } from '#domain/errors.ts';
import {
  idempotencyKeyHash,
  idempotencyKeyOf,
  idempotencyKeyReused,
  postFingerprint,
  type RecordedAnswer,
} from '#domain/idempotency.ts';
import { type IdempotencyClaim, readIdempotencyRecord } from '#store/idempotency-records.ts';
import type { ParsedBody } from './body.ts';

/**
 * A post's `Idempotency-Key` (docs/submit.md#idempotency-key), taken at the
 * end of step 5, once the body is read: the key is stored as its hash, the
 * post as its fingerprint.
 */
export interface PostKey {
  keyHash: string;
  fingerprint: string;
}

/** The post's key, or undefined when it has none; a malformed key is `400 invalid_request`. */
export function postKeyOf(
  header: string | readonly string[] | undefined,
  body: ParsedBody,
): PostKey | undefined {
  const key = idempotencyKeyOf(header);
  if (key === undefined) return undefined;
  return {
    keyHash: idempotencyKeyHash(key),
    fingerprint: postFingerprint(body.pairs, body.files),
  };
}

/**
 * The answer of the post stored under the key within the window, if any; the
 * key holding another post is `422 idempotency_key_reused`.
 */
export async function earlierAnswer(
  formId: string,
  key: PostKey,
  now: Date,
): Promise<RecordedAnswer | undefined> {
  const record = await readIdempotencyRecord(formId, key.keyHash, now);
  if (!record) return undefined;
  if (record.fingerprint !== key.fingerprint) throw idempotencyKeyReused();
  return record.answer;
}

/** What the storing transaction claims for a keyed post: the key, until the window ends. */
export function keyClaim(
  key: PostKey,
  answer: IdempotencyClaim['answer'],
  now: Date,
): IdempotencyClaim {
  return {
    ...key,
    expiresAt: Math.floor(now.getTime() / 1000) + config.idempotencyWindowSeconds,
    answer,
  };
}

/**
 * The storing transaction found the key held: the post that holds it is this
 * one's twin, stored a moment ago, whose answer the caller replays.
 */
export const keyHeldByAnother = () =>
  new ServiceError('busy', 'Another post with this Idempotency-Key was being stored; try again', {
    headers: { 'retry-after': '1' },
  });
