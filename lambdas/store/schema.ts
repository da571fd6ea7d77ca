/**
 * The single table, declared once as plain data: the CDK stack, the local
 * bootstrap and the admin CLI all build the table from this, so the key
 * schema, indexes, stream and TTL can never drift between AWS and local.
 * No AWS imports here on purpose (lib/ and lambdas/ both read it).
 */

export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;
export const TTL_ATTRIBUTE = 'expiresAt';
/** Set on a form item by its retention sweep: the write that lets the retention applier run. */
export const RETENTION_SWEEP_ATTRIBUTE = 'retentionSweptAt';
export const STREAM_VIEW = 'NEW_AND_OLD_IMAGES';

export interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey: string;
  /** KEYS_ONLY indexes are walked cheaply, then the page is read with BatchGet. */
  projection: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
  /** With INCLUDE: the attributes copied besides the keys. */
  include?: readonly string[];
}

/**
 * Sparse indexes: an item appears in an index only while it carries that
 * index's partition key attribute.
 * - byParent: children of a parent newest first (a team's forms, the teams list),
 *   with only what those lists show: a settings change of a large form copies
 *   a few hundred bytes to the index, not the whole item.
 * - subAll / subUnread / subStarred / subSpam / subPending: one per submission list filter;
 *   the attribute is set to `FORM#<id>` while the submission matches the filter.
 */
export const INDEXES = {
  byParent: {
    name: 'byParent',
    partitionKey: 'parentPk',
    sortKey: 'createdAt',
    projection: 'INCLUDE',
    include: [
      // The form list (FormSummary); `submissionCount` is summed from the shards.
      'id',
      'teamId',
      'name',
      'type',
      'emoji',
      'status',
      'key',
      // The teams list (Team).
      'ownerEmail',
      'ownerUserId',
      'plan',
      'formCount',
      'monthlyAllowance',
    ],
  },
  subAll: { name: 'subAll', partitionKey: 'subAllPk', sortKey: 'sk', projection: 'KEYS_ONLY' },
  subUnread: {
    name: 'subUnread',
    partitionKey: 'subUnreadPk',
    sortKey: 'sk',
    projection: 'KEYS_ONLY',
  },
  subStarred: {
    name: 'subStarred',
    partitionKey: 'subStarredPk',
    sortKey: 'sk',
    projection: 'KEYS_ONLY',
  },
  subSpam: { name: 'subSpam', partitionKey: 'subSpamPk', sortKey: 'sk', projection: 'KEYS_ONLY' },
  /** Submissions waiting for their visitor's confirmation (docs/forms.md#confirm-by-email). */
  subPending: {
    name: 'subPending',
    partitionKey: 'subPendingPk',
    sortKey: 'sk',
    projection: 'KEYS_ONLY',
  },
} as const satisfies Record<string, IndexDefinition>;

/** Every key attribute is a string. */
export function keyAttributes(): string[] {
  const names = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
  for (const index of Object.values(INDEXES)) {
    names.add(index.partitionKey);
    names.add(index.sortKey);
  }
  return [...names];
}

/**
 * Lambda event-filter patterns of the table stream's consumers
 * (lambdas/workers.ts). The delivery fan-out's: inserted submissions. The
 * stream dispatcher's event source mapping takes the covering union of its
 * own and the dispatched workers' (the CDK mapping and the local stream
 * poller alike), then hands each record to the workers whose pattern it
 * matches (lambdas/domain/event-filter.ts evaluates them).
 */
export const INSERTED_SUBMISSION_PATTERN = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { entity: { S: ['submission'] } } },
} as const;

/**
 * A submission whose last file waiting for its malware scan got its verdict
 * (docs/delivery.md#files-scanned): the one write that took `scanPending`
 * from 1 to 0. DynamoDB numbers reach the stream as strings, so both sides
 * are matched as text.
 */
export const SCAN_SETTLED_PATTERN = {
  eventName: ['MODIFY'],
  dynamodb: {
    NewImage: { entity: { S: ['submission'] }, scanPending: { N: ['0'] } },
    OldImage: { scanPending: { N: [{ 'anything-but': ['0'] }] } },
  },
} as const;

/**
 * A pending submission confirmed by its visitor (docs/submit.md#confirm-by-email):
 * the one write that took its confirmation from `pending` to `confirmed`,
 * which releases its delivery through the same fan-out as an insert.
 */
export const CONFIRMED_SUBMISSION_PATTERN = {
  eventName: ['MODIFY'],
  dynamodb: {
    NewImage: {
      entity: { S: ['submission'] },
      confirmation: { M: { status: { S: ['confirmed'] } } },
    },
    OldImage: { confirmation: { M: { status: { S: ['pending'] } } } },
  },
} as const;

/**
 * A confirmed submission (CONFIRMED_SUBMISSION_PATTERN) whose files already
 * have all their malware scans' verdicts: the click announces them too, as
 * the scan's own announcement said nothing while it waited
 * (docs/delivery.md#files-scanned). Files still being scanned at the click
 * are announced by their last verdict's write, which then sees it confirmed.
 */
export const CONFIRMED_SCANNED_PATTERN = {
  eventName: ['MODIFY'],
  dynamodb: {
    NewImage: {
      ...CONFIRMED_SUBMISSION_PATTERN.dynamodb.NewImage,
      scanPending: { N: ['0'] },
    },
    OldImage: CONFIRMED_SUBMISSION_PATTERN.dynamodb.OldImage,
  },
} as const;

/**
 * The pending purger's trigger: a submission stored waiting for its
 * visitor's confirmation (the form's expired unconfirmed ones go then).
 */
export const INSERTED_PENDING_PATTERN = {
  eventName: ['INSERT'],
  dynamodb: {
    NewImage: {
      entity: { S: ['submission'] },
      confirmation: { M: { status: { S: ['pending'] } } },
    },
  },
} as const;

/** The summary's trigger: any change of a submission (stored, changed, deleted). */
export const SUBMISSION_CHANGE_PATTERN = {
  dynamodb: { Keys: { sk: { S: [{ prefix: 'SUB#' }] } } },
} as const;

/** The spam purger's trigger: a submission stored as spam (the form receives spam again). */
export const INSERTED_SPAM_PATTERN = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { entity: { S: ['submission'] }, isSpam: { BOOL: [true] } } },
} as const;

/**
 * The retention purger's second trigger: a form item written while it keeps
 * submissions a limited time (a changed `retentionDays` applies at once).
 */
export const RETAINING_FORM_PATTERN = {
  eventName: ['INSERT', 'MODIFY'],
  dynamodb: { NewImage: { entity: { S: ['form'] }, retentionDays: { N: [{ exists: true }] } } },
} as const;

/** The purger's trigger: a form item removed from the table (by DELETE /v1/forms/{id}). */
export const REMOVED_FORM_PATTERN = {
  eventName: ['REMOVE'],
  dynamodb: { OldImage: { entity: { S: ['form'] } } },
} as const;

/**
 * Every item names what it is in `entity`, not `type`: a form has a `type`
 * field of its own in the product's words (docs/architecture.md#decisions).
 */
export const ENTITY_ATTRIBUTE = 'entity';
