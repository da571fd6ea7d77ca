import { FOLDERS } from '#domain/submission-folders.ts';
import {
  ENTITY_ATTRIBUTE,
  INDEXES,
  RETENTION_SWEEP_ATTRIBUTE,
  TABLE_KEYS,
  TTL_ATTRIBUTE,
} from './schema.ts';

/** Every key of the single table is built here and nowhere else. */

export const teamKey = (teamId: string) => ({ pk: `TEAM#${teamId}`, sk: 'TEAM' });

/** A member of a team, in the team's partition (its sessions beside it). */
export const memberKey = (teamId: string, userId: string) => ({
  pk: `TEAM#${teamId}`,
  sk: `MEMBER#${userId}`,
});
export const MEMBER_PREFIX = 'MEMBER#';

/** The teams an address belongs to: sign-in finds them by the address. */
export const membershipKey = (email: string, teamId: string) => ({
  pk: `MEMBERSHIP#${email}`,
  sk: `TEAM#${teamId}`,
});
export const membershipsOfEmail = (email: string) => `MEMBERSHIP#${email}`;

/** A dashboard session, by member, in the team's partition; `sessionId` is the secret's hash. */
export const sessionKey = (teamId: string, userId: string, sessionId: string) => ({
  pk: `TEAM#${teamId}`,
  sk: `${sessionPrefix(userId)}${sessionId}`,
});
export const sessionPrefix = (userId: string) => `SESSION#${userId}#`;

/** A pending sign-in of an address (its code), and its link's token by hash. */
export const signInKey = (email: string) => ({ pk: `SIGNIN#${email}`, sk: 'SIGNIN' });
export const signInTokenKey = (tokenHash: string) => ({
  pk: `SIGNINTOKEN#${tokenHash}`,
  sk: 'SIGNINTOKEN',
});

/** The team's audit trail, newest last (UUID v7 ids sort by time). */
export const auditKey = (teamId: string, eventId: string) => ({
  pk: `TEAM#${teamId}`,
  sk: `${AUDIT_PREFIX}${eventId}`,
});
export const AUDIT_PREFIX = 'AUDIT#';

export const apiKeyKey = (keyId: string) => ({ pk: `APIKEY#${keyId}`, sk: 'APIKEY' });
/** A key's entry in its team's list of keys (what `GET /v1/team/api-keys` shows). */
export const apiKeyListingKey = (teamId: string, keyId: string) => ({
  pk: `TEAM#${teamId}`,
  sk: `${API_KEY_PREFIX_SK}${keyId}`,
});
export const API_KEY_PREFIX_SK = 'APIKEY#';
export const formKey = (formId: string) => ({ pk: `FORM#${formId}`, sk: 'FORM' });
/** A form's webhook lives in the form's partition, so deleting the form's items removes it. */
export const webhookKey = (formId: string) => ({ pk: `FORM#${formId}`, sk: 'WEBHOOK' });
/** Public form keys are case-insensitive: the mapping is stored lower case. */
export const formKeyMappingKey = (key: string) => ({
  pk: `FKEY#${key.toLowerCase()}`,
  sk: 'FKEY',
});

/** One counter per scope and window; the `RATE#` prefix is what the IAM grant allows. */
export const rateWindowKey = (scope: string, windowStart: number) => ({
  pk: `RATE#${scope}#${windowStart}`,
  sk: 'RATE',
});

/** Submissions sort by their UUID v7 id, which is time-ordered. */
export const submissionKey = (formId: string, submissionId: string) => ({
  pk: `FORM#${formId}`,
  sk: `SUB#${submissionId}`,
});
export const SUBMISSION_PREFIX = 'SUB#';

/**
 * The largest submission sort key a submission received by `createdUpTo` can
 * have. A UUID v7 starts with its Unix milliseconds (48 bits, hex); ids are
 * drawn just after `createdAt` is taken, so a minute of margin is added and
 * callers filter exactly on `createdAt`.
 */
export function submissionSortKeyUpTo(createdUpTo: string): string {
  const ms = Date.parse(createdUpTo) + ID_CLOCK_MARGIN_MS;
  const hex = Math.max(0, ms).toString(16).padStart(12, '0');
  // '~' sorts after every hex digit, so every id of that millisecond is included.
  return `${SUBMISSION_PREFIX}${hex.slice(0, 8)}-${hex.slice(8, 12)}~`;
}
const ID_CLOCK_MARGIN_MS = 60_000;

/** The smallest submission sort key a submission received from `createdFrom` on can have (as above). */
export function submissionSortKeyFrom(createdFrom: string): string {
  const ms = Date.parse(createdFrom) - ID_CLOCK_MARGIN_MS;
  const hex = Math.max(0, ms).toString(16).padStart(12, '0');
  return `${SUBMISSION_PREFIX}${hex.slice(0, 8)}-${hex.slice(8, 12)}`;
}

/**
 * Shards of a form's counters (folder sizes, counted submissions, the
 * `maxSubmissions` caps and a copy of the form's open/closed gate): posts
 * spread over them instead of all writing the form item. They sort right
 * after the form item (`FORM` < `FORM#COUNT#..`), so one Query reads both.
 * A constant, not a setting: the caps are spread over exactly this many.
 */
export const FORM_COUNTER_SHARDS = 32;
export const FORM_META_PREFIX = 'FORM';
export const FORM_COUNTER_PREFIX = 'FORM#COUNT#';
export const formCounterKey = (formId: string, shard: number) => ({
  pk: `FORM#${formId}`,
  sk: `${FORM_COUNTER_PREFIX}${String(shard).padStart(2, '0')}`,
});
export const counterShardOf = (sk: string): number => Number(sk.slice(FORM_COUNTER_PREFIX.length));

/**
 * A form's column catalogue: every answer name its posts ever carried, each
 * with the time of the first post that did (answer-columns.ts), so the CSV
 * export knows its header before reading a row. Its sort key shares the
 * `FORM` prefix, so the submit path's form read returns it at no cost;
 * `FORM#COLUMNS` does not start with `FORM#COUNT#`, so counter reads skip it.
 */
export const formColumnsKey = (formId: string) => ({ pk: `FORM#${formId}`, sk: 'FORM#COLUMNS' });

/**
 * A team's counted submissions in one calendar month (UTC), over shards:
 * `USAGE_COUNTER_SHARDS` that take the posts below the near-limit threshold,
 * and one (`NEAR`) for the last posts of the allowance, so `near_limit` stays
 * exact. Reads sum them with one Query on the month's prefix.
 */
export const USAGE_COUNTER_SHARDS = 32;
export const usagePrefix = (month: string) => `USAGE#${month}#`;
export const usageKey = (teamId: string, month: string, shard: number | 'near') => ({
  pk: `TEAM#${teamId}`,
  sk: `${usagePrefix(month)}${shard === 'near' ? 'NEAR' : String(shard).padStart(2, '0')}`,
});

/**
 * A form's spam stored in one calendar month (UTC), bounded by the spam cap.
 * In the form's partition, so deleting the form removes it.
 */
export const spamQuotaKey = (formId: string, month: string) => ({
  pk: `FORM#${formId}`,
  sk: `SPAM#${month}`,
});

/** A submission's webhook delivery, in the form's partition; sorts like the submission. */
export const deliveryKey = (formId: string, submissionId: string) => ({
  pk: `FORM#${formId}`,
  sk: `${DELIVERY_PREFIX}${submissionId}`,
});
export const DELIVERY_PREFIX = 'DELIVERY#';

/**
 * A form's integration (docs/integrations.md#the-api), in the form's
 * partition, so deleting the form's items removes it.
 */
export const integrationKey = (formId: string, kind: string) => ({
  pk: `FORM#${formId}`,
  sk: `${INTEGRATION_PREFIX}${kind}`,
});
export const INTEGRATION_PREFIX = 'INTEGRATION#';

/**
 * A submission's delivery to one integration. Its own prefix: not
 * `DELIVERY#` (the webhook's log is a Query on that prefix), not `SUB#`
 * (the stream's submission consumers), not `INTEGRATION#` (the integrations).
 */
export const integrationDeliveryKey = (formId: string, kind: string, submissionId: string) => ({
  pk: `FORM#${formId}`,
  sk: `${integrationDeliveryPrefix(kind)}${submissionId}`,
});
export const integrationDeliveryPrefix = (kind: string) => `IDELIVERY#${kind}#`;

/**
 * One email of a submission: claimed for a lease before the send, final once sent or
 * refused, so a message received twice sends it once (store/deliveries.ts).
 */
export const emailMarkKey = (formId: string, submissionId: string, kind: string) => ({
  pk: `FORM#${formId}`,
  sk: `EMAIL#${submissionId}#${kind}`,
});

/**
 * A direct upload used by a stored submission: put in the storing
 * transaction on condition that none exists, so an upload id is used once.
 */
export const uploadClaimKey = (formId: string, uploadId: string) => ({
  pk: `UPLOAD#${formId}#${uploadId}`,
  sk: 'UPLOAD',
});

/** Marks answers already received by a form within the duplicate window. */
export const duplicateMarkKey = (formId: string, fingerprint: string) => ({
  pk: `DUP#${formId}#${fingerprint}`,
  sk: 'DUP',
});

/**
 * A person's place on a form with `unique` (docs/forms.md#one-answer-per-person),
 * by the keyed hash of their mailbox: put on condition that none exists by the
 * transaction that stores (or confirms) their submission, deleted with it (and
 * by the purge of a deleted form, from its submissions' `personHash`). A
 * partition of its own, like the duplicate mark: in the form's, it would add 2
 * write units a post to the form's hottest key (docs/benchmarks.md#partitions).
 */
export const personPlaceKey = (formId: string, hash: string) => ({
  pk: `PERSON#${formId}#${hash}`,
  sk: 'PERSON',
});

/**
 * A post stored under an `Idempotency-Key` (docs/submit.md#idempotency-key), by the
 * key's hash: in the form's partition, so keys are per form and go with the form.
 */
export const idempotencyRecordKey = (formId: string, keyHash: string) => ({
  pk: `FORM#${formId}`,
  sk: `IDEM#${keyHash}`,
});

/**
 * One email address held by one submission, by the address's keyed hash
 * (docs/privacy.md#how-a-person-is-found): a person's submissions across the
 * team's forms are one Query of one partition. Its sort key must not start
 * with `SUB#`: the stream's submission consumers (the summary rollup…) take
 * every `SUB#` item for a submission.
 */
export const emailIndexKey = (
  teamId: string,
  hash: string,
  formId: string,
  submissionId: string,
) => ({ pk: emailIndexPartition(teamId, hash), sk: `HELD#${formId}#${submissionId}` });
export const emailIndexPartition = (teamId: string, hash: string) => `TEAM#${teamId}#EMAIL#${hash}`;

/**
 * An address the team's forms send no more email to (docs/delivery.md#suppressed-addresses),
 * in the team's partition: one GetItem before each send, one Query for the list.
 */
export const suppressionKey = (teamId: string, address: string) => ({
  pk: `TEAM#${teamId}`,
  sk: `${SUPPRESSION_PREFIX}${address}`,
});
export const SUPPRESSION_PREFIX = 'SUPPRESSED#';

/** byParent index partitions. */
export const ALL_TEAMS = 'TEAMS';
export const teamFormsParent = (teamId: string) => `TEAM#${teamId}#FORMS`;

/**
 * Per-folder counters on the form item (`count_all`, `count_unread`, ...):
 * moved by the same transactions that change a submission's folders, read by
 * the submissions list, never part of the form object.
 */
export const folderCounter = (folder: string) => `count_${folder}`;

/**
 * Attributes that are table plumbing, never part of a domain object: the
 * table's keys, the item kind, the TTL, a form's retention sweep mark, every index's partition key (their
 * sort keys, `sk` and `createdAt`, are kept or domain fields) and the
 * folder counters. Derived from the schema, so a new index cannot leak.
 */
export const PLUMBING: readonly string[] = [
  TABLE_KEYS.partitionKey,
  TABLE_KEYS.sortKey,
  ENTITY_ATTRIBUTE,
  TTL_ATTRIBUTE,
  RETENTION_SWEEP_ATTRIBUTE,
  ...Object.values(INDEXES).map((index) => index.partitionKey),
  ...FOLDERS.map(folderCounter),
];

export function stripPlumbing<T>(item: Record<string, unknown>): T {
  const copy: Record<string, unknown> = { ...item };
  for (const name of PLUMBING) delete copy[name];
  return copy as T;
}
