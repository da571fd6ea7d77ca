import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { isStepCounter } from '#domain/funnel.ts';
import type { Submission } from '#domain/submission-model.ts';
import {
  type Counters,
  hourOf,
  hourStart,
  type Recount,
  type RollupChange,
  type RollupRun,
} from '#domain/summary-counters.ts';
import type { HourBucket } from '#domain/summary-report.ts';
import { batchWriteAll, type WriteRequest } from './batches.ts';
import { documents } from './client.ts';
import { toSubmission } from './folder-reads.ts';
import { formKey, SUBMISSION_PREFIX } from './keys.ts';
import type { EmailHints } from './submissions.ts';

/**
 * The summary's rollups in the form's partition (docs/analytics.md#summary):
 * an item a UTC hour with activity (`STAT#H<YYYYMMDDHH>`), a waitlist
 * form's signups a UTC month (`STAT#M<YYYYMM>`, one counter a day), and a
 * mark a signup address (`SEEN#<keyed hash>`: the email index's hash of
 * the address, docs/privacy.md#the-signup-mark). Counters are top-level
 * number attributes named as the counter, so an update ADDs to them in
 * place. Deleting the form deletes them with its partition.
 */

/**
 * Every attribute of a rollup item but these is a counter, named as the
 * counter (`s`, `cc:FR`): no prefix, as a year's read is paid by the byte.
 */
const NOT_COUNTERS = new Set(['pk', 'sk', 'seq', 'entity']);
const hourSk = (hour: string) => `STAT#H${hour}`;
const monthSk = (month: string) => `STAT#M${month}`;
const MARK_PREFIX = 'SEEN#';
/** A signup mark's key: the keyed hash of its address (emailHash), never the address. */
const markSk = (senderHash: string) => `${MARK_PREFIX}${senderHash}`;
/**
 * The key older versions gave a mark: an unkeyed SHA-256 of the address
 * (64 hex digits, where a keyed hash has 32). Kept only to find and remove
 * those marks (a deletion, `privacy reindex`).
 */
export const legacyMarkSk = (email: string) =>
  `${MARK_PREFIX}${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
const isLegacyMarkSk = (sk: string) => sk.length === MARK_PREFIX.length + 64;

/**
 * A stream sequence number (21 to 40 digits) as a string that compares as
 * the number does: its length in two digits, then the digits.
 */
const sequenceOf = (sequence: string) => `${String(sequence.length).padStart(2, '0')}${sequence}`;

function addExpression(counters: Counters) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds = Object.entries(counters).map(([name, by], i) => {
    names[`#c${i}`] = name;
    values[`:c${i}`] = by;
    return `#c${i} :c${i}`;
  });
  return { adds, names, values };
}

/**
 * Adds `counters` to one item. With `records` (the first and last stream
 * record whose changes they add up), only if the item has taken none of
 * them yet: a record the stream delivers again moves nothing twice.
 * Returns whether it was applied.
 */
async function addTo(
  formId: string,
  sk: string,
  entity: string,
  counters: Counters,
  records?: { first: string; last: string },
): Promise<boolean> {
  const { adds, names, values } = addExpression(counters);
  if (adds.length === 0 && records === undefined) return true;
  const sets = ['entity = :entity'];
  values[':entity'] = entity;
  if (records !== undefined) {
    sets.push('seq = :last');
    values[':last'] = sequenceOf(records.last);
    values[':first'] = sequenceOf(records.first);
  }
  try {
    await documents.send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: { pk: formKey(formId).pk, sk },
        UpdateExpression: `SET ${sets.join(', ')}${adds.length ? ` ADD ${adds.join(', ')}` : ''}`,
        ConditionExpression:
          records === undefined ? undefined : 'attribute_not_exists(seq) OR seq < :first',
        ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

const rollupItem = (bucket: RollupChange['bucket']) =>
  bucket.kind === 'hour'
    ? { sk: hourSk(bucket.key), entity: 'summaryHour' }
    : { sk: monthSk(bucket.key), entity: 'summaryMonth' };

/**
 * A batch's changes to one rollup item in one write (rollupRuns). When the
 * item has taken some of them already (a batch delivered again after a
 * failure further on, with later records of the same item), they are
 * applied one by one instead, each only if not taken.
 */
export async function applyRollupRun(run: RollupRun): Promise<void> {
  const { sk, entity } = rollupItem(run.bucket);
  if (await addTo(run.formId, sk, entity, run.counters, run)) return;
  if (run.changes.length === 1) return;
  for (const change of run.changes) {
    const records = { first: change.sequence, last: change.sequence };
    await addTo(run.formId, sk, entity, change.counters, records);
  }
}

/** Counters not tied to a submission (a view, a dropped post): added as they happen. */
export function addToHour(formId: string, hour: string, counters: Counters) {
  return addTo(formId, hourSk(hour), 'summaryHour', counters);
}

/**
 * Marks an address (by its keyed hash) as having signed up to the form:
 * true for its first signup (again for that same submission, when its
 * record comes round a second time), false for any later one. The mark
 * lasts as long as that submission (forgetSignup).
 */
export async function firstSignupOf(
  formId: string,
  senderHash: string,
  submissionId: string,
): Promise<boolean> {
  try {
    await documents.send(
      new PutCommand({
        TableName: config.tableName,
        Item: {
          pk: formKey(formId).pk,
          sk: markSk(senderHash),
          entity: 'signupMark',
          submissionId,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR submissionId = :id',
        ExpressionAttributeValues: { ':id': submissionId },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Removes the mark a deleted submission made, by its key (`{ hash }`, or
 * `{ legacyEmail }` for a mark an older version made): only while the mark
 * is that submission's, so a later signup's mark stays. Returns whether
 * one was removed.
 */
export async function forgetSignup(
  formId: string,
  mark: { hash: string } | { legacyEmail: string },
  submissionId: string,
): Promise<boolean> {
  const sk = 'hash' in mark ? markSk(mark.hash) : legacyMarkSk(mark.legacyEmail);
  try {
    await documents.send(
      new DeleteCommand({
        TableName: config.tableName,
        Key: { pk: formKey(formId).pk, sk },
        ConditionExpression: 'submissionId = :id',
        ExpressionAttributeValues: { ':id': submissionId },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** The form's signup marks an older version keyed by an unkeyed SHA-256: what `privacy reindex` moves. */
export async function legacySignupMarks(
  formId: string,
): Promise<{ sk: string; submissionId: string }[]> {
  const marks = await queryRange(formId, MARK_PREFIX, 'SEEN$');
  return marks
    .filter((item) => isLegacyMarkSk(String(item.sk)))
    .map((item) => ({ sk: String(item.sk), submissionId: String(item.submissionId) }));
}

/**
 * Moves one legacy mark to its keyed key, for the same submission (unless
 * a keyed mark of that address exists already: it stays), and removes the
 * legacy one.
 */
export async function rekeySignupMark(
  formId: string,
  legacySk: string,
  senderHash: string | undefined,
  submissionId: string,
): Promise<void> {
  const pk = formKey(formId).pk;
  if (senderHash) {
    try {
      await documents.send(
        new PutCommand({
          TableName: config.tableName,
          Item: { pk, sk: markSk(senderHash), entity: 'signupMark', submissionId },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  await documents.send(
    new DeleteCommand({ TableName: config.tableName, Key: { pk, sk: legacySk } }),
  );
}

function countersOfItem(item: Record<string, unknown>): Counters {
  const counters: Counters = {};
  for (const [name, value] of Object.entries(item)) {
    if (!NOT_COUNTERS.has(name) && typeof value === 'number') {
      counters[name] = value;
    }
  }
  return counters;
}

async function queryRange(formId: string, first: string, last: string) {
  const items: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({
        TableName: config.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
        ExpressionAttributeValues: { ':pk': formKey(formId).pk, ':first': first, ':last': last },
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}

/** Hours in a slice read by one Query: about 1 MB of a busy form's buckets. */
const HOURS_PER_QUERY = 24 * 62;

/**
 * The hour buckets from `first` to `last` (`YYYYMMDDHH`, inclusive): one
 * Query per two months of hours, all at once, so a year costs one round
 * trip, not one per page.
 */
export async function readHours(
  formId: string,
  first: string,
  last: string,
): Promise<HourBucket[]> {
  const hourMs = 3_600_000;
  const toHour = (ms: number) => hourOf(new Date(ms).toISOString());
  const slices: [string, string][] = [];
  const lastMs = hourStart(last);
  for (let start = hourStart(first); start <= lastMs; start += HOURS_PER_QUERY * hourMs) {
    const end = Math.min(start + (HOURS_PER_QUERY - 1) * hourMs, lastMs);
    slices.push([toHour(start), toHour(end)]);
  }
  const pages = await Promise.all(
    slices.map(([from, to]) => queryRange(formId, hourSk(from), hourSk(to))),
  );
  return pages.flat().map((item) => ({
    hour: (item.sk as string).slice('STAT#H'.length),
    counters: countersOfItem(item),
  }));
}

/** A waitlist form's signups a UTC day (`YYYYMMDD` → count) for the months before and including `month`. */
export async function readSignupDays(
  formId: string,
  upToMonth: string,
): Promise<Record<string, number>> {
  const items = await queryRange(formId, monthSk('000000'), monthSk(upToMonth));
  const days: Record<string, number> = {};
  for (const item of items) Object.assign(days, countersOfItem(item));
  return days;
}

/**
 * The form's submissions, oldest first, each with its email hints and, on
 * a waitlist, its sender's keyed hash when the submit path stored it (a
 * rebuild's input).
 */
export async function* submissionsOldestFirst(
  formId: string,
): AsyncGenerator<{ submission: Submission; hints: EmailHints; signupHash?: string }> {
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({
        TableName: config.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': formKey(formId).pk, ':prefix': SUBMISSION_PREFIX },
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of page.Items ?? []) {
      yield {
        submission: toSubmission(item),
        hints: (item.emailHints as EmailHints | undefined) ?? {},
        ...(typeof item.signupHash === 'string' ? { signupHash: item.signupHash } : {}),
      };
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor);
}

/** Counters that only the submit path and the beacons write (views, drops, steps): a rebuild keeps them. */
const notFromSubmissions = (name: string) =>
  name === 'v' || name.startsWith('d:') || isStepCounter(name);

/**
 * Replaces a form's rollups by a recount: every hour, month and address
 * mark is written anew, keeping the views, dropped posts and funnel steps of each hour
 * and the last stream record each item took (so a record taken before the
 * rebuild is not taken again). Run it while the form's stream is quiet: a
 * change the stream applies during the rebuild may be counted twice.
 */
export async function replaceRollups(
  formId: string,
  recount: Recount,
): Promise<{ hours: number; months: number; marks: number; deleted: number }> {
  const pk = formKey(formId).pk;
  const [stats, seen] = await Promise.all([
    queryRange(formId, 'STAT#', 'STAT$'),
    queryRange(formId, 'SEEN#', 'SEEN$'),
  ]);
  const items = new Map<string, { entity: string; seq?: unknown; counters: Counters }>();
  for (const item of stats) {
    const sk = item.sk as string;
    const kept = Object.entries(countersOfItem(item)).filter(([name]) => notFromSubmissions(name));
    items.set(sk, {
      entity: sk.startsWith('STAT#H') ? 'summaryHour' : 'summaryMonth',
      seq: item.seq,
      counters: sk.startsWith('STAT#H') ? Object.fromEntries(kept) : {},
    });
  }
  const add = (sk: string, entity: string, counters: Counters) => {
    const item = items.get(sk) ?? { entity, counters: {} };
    for (const [name, by] of Object.entries(counters)) {
      item.counters[name] = (item.counters[name] ?? 0) + by;
    }
    items.set(sk, item);
  };
  for (const [hour, counters] of recount.hours) add(hourSk(hour), 'summaryHour', counters);
  for (const [day, count] of recount.signupDays) {
    add(monthSk(day.slice(0, 6)), 'summaryMonth', { [day]: count });
  }
  const writes: WriteRequest[] = [];
  const counted = { hours: 0, months: 0, marks: 0, deleted: 0 };
  for (const [sk, { entity, seq, counters }] of items) {
    const nonZero = Object.entries(counters).filter(([, value]) => value !== 0);
    if (nonZero.length === 0) {
      writes.push({ DeleteRequest: { Key: { pk, sk } } });
      counted.deleted += 1;
      continue;
    }
    const item: Record<string, unknown> = { pk, sk, entity };
    if (seq !== undefined) item.seq = seq;
    for (const [name, value] of nonZero) item[name] = value;
    writes.push({ PutRequest: { Item: item } });
    if (entity === 'summaryHour') counted.hours += 1;
    else counted.months += 1;
  }
  const marks = new Map(
    [...recount.firstSignups].map(([sender, submissionId]) => [markSk(sender), submissionId]),
  );
  for (const item of seen) {
    if (!marks.has(item.sk as string)) {
      writes.push({ DeleteRequest: { Key: { pk, sk: item.sk } } });
      counted.deleted += 1;
    }
  }
  for (const [sk, submissionId] of marks) {
    writes.push({ PutRequest: { Item: { pk, sk, entity: 'signupMark', submissionId } } });
    counted.marks += 1;
  }
  for (let i = 0; i < writes.length; i += 25) await batchWriteAll(writes.slice(i, i + 25));
  return counted;
}
