import type { RecordedAnswer } from '#domain/idempotency.ts';
import { idempotencyRecordKey } from './keys.ts';
import { updateIf } from './retries.ts';
import { getItem, type TableTransactItem } from './table.ts';

/**
 * The record of a post stored under an `Idempotency-Key`
 * (docs/submit.md#idempotency-key): written by the transaction that stores
 * the post, on the condition that the key is free, so of two posts racing
 * with one key exactly one stores; it holds what a retry answers.
 */
export interface IdempotencyClaim {
  keyHash: string;
  /** The post's fingerprint: a retry under the key must match it. */
  fingerprint: string;
  /** When the key is free again (TTL, epoch seconds). */
  expiresAt: number;
  /** The first answer, less what the transaction decides (`nearLimit`). */
  answer: Omit<RecordedAnswer, 'nearLimit'>;
}

export interface IdempotencyRecord {
  fingerprint: string;
  answer: RecordedAnswer;
}

/** The Put of the storing transaction; `nearLimit` is the warning that transaction's usage band gives. */
export function idempotencyRecordPut(
  formId: string,
  claim: IdempotencyClaim,
  nearLimit: boolean,
  nowSeconds: number,
): TableTransactItem {
  const { location, ...answer } = claim.answer;
  return {
    Put: {
      Item: {
        ...idempotencyRecordKey(formId, claim.keyHash),
        entity: 'idempotencyRecord',
        fingerprint: claim.fingerprint,
        ...answer,
        ...(location === undefined ? {} : { location }),
        nearLimit,
        expiresAt: claim.expiresAt,
      },
      // DynamoDB removes expired items late (DynamoDB Local never): an expired record is free.
      ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :nowSeconds',
      ExpressionAttributeValues: { ':nowSeconds': nowSeconds },
    },
  };
}

/**
 * The record under a key, unless it has expired. A consistent read: a retry
 * sent the moment the first post was answered must find it.
 */
export async function readIdempotencyRecord(
  formId: string,
  keyHash: string,
  now: Date,
): Promise<IdempotencyRecord | undefined> {
  const item = await getItem(idempotencyRecordKey(formId, keyHash), { consistent: true });
  if (!item || Number(item.expiresAt) <= Math.floor(now.getTime() / 1000)) return undefined;
  return {
    fingerprint: String(item.fingerprint),
    answer: {
      submissionId: String(item.submissionId),
      nearLimit: item.nearLimit === true,
      page: item.page === true,
      ...(typeof item.location === 'string' ? { location: item.location } : {}),
      ...(item.pending === true ? { pending: true as const } : {}),
    },
  };
}

/**
 * Drops the redirect `Location` from the record of an erased submission's
 * key (docs/privacy.md#erase-by-email): a `_redirect` may carry the
 * sender's address in its query. The record itself stays until its window
 * ends, so a retry of the post stores nothing again; it answers the
 * thank-you page instead of the redirect. Only the record of that
 * submission: a key free again and reused since is left alone.
 */
export async function forgetRecordedLocation(
  formId: string,
  keyHash: string,
  submissionId: string,
): Promise<void> {
  await updateIf({
    Key: idempotencyRecordKey(formId, keyHash),
    UpdateExpression: 'REMOVE #location',
    ConditionExpression: 'submissionId = :id AND attribute_exists(#location)',
    ExpressionAttributeNames: { '#location': 'location' },
    ExpressionAttributeValues: { ':id': submissionId },
  });
}
