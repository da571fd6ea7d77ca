import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import type { BulkTarget } from '#domain/bulk-target.ts';
import type { EmailHints } from '#domain/email-messages.ts';
import { isUuid } from '#domain/ids.ts';
import { isKept } from '#domain/retention.ts';
import { type Folder, type FolderSizes, foldersOf } from '#domain/submission-folders.ts';
import type { ListQuery } from '#domain/submission-list.ts';
import type { SpamReason, Submission } from '#domain/submission-model.ts';
import { pageHolding, pageWindow } from '#domain/submission-pages.ts';
import { SEARCH_READ_LIMIT } from '#domain/submission-search.ts';
import { batchGetAll } from './batches.ts';
import { documents } from './client.ts';
import {
  formKey,
  SUBMISSION_PREFIX,
  stripPlumbing,
  submissionKey,
  submissionSortKeyUpTo,
} from './keys.ts';
import { INDEXES } from './schema.ts';

/**
 * Reads of the inbox folders. Each folder is a sparse KEYS_ONLY index whose
 * partition is the form: walking it reads ~150 bytes a submission (about
 * 6,000 keys in one 1 MB Query), and only the page actually shown is read
 * whole with BatchGet. Every read is a Query or a Get; nothing scans.
 */

export const FOLDER_INDEX = {
  all: INDEXES.subAll,
  unread: INDEXES.subUnread,
  starred: INDEXES.subStarred,
  spam: INDEXES.subSpam,
  pending: INDEXES.subPending,
} as const satisfies Record<Folder, { name: string; partitionKey: string }>;

type Key = Record<string, unknown>;

/** Where in a folder a walk starts: after `cursor`, and no newer than `createdUpTo`. */
interface FolderRange {
  cursor?: Key;
  /** ISO time: keys of submissions received later are not read. */
  createdUpTo?: string;
  /** Only the keys on one side of this submission. */
  beside?: { id: string; side: 'newer' | 'older' };
}

function folderQuery(formId: string, folder: Folder, range: FolderRange) {
  const index = FOLDER_INDEX[folder];
  const values: Record<string, unknown> = { ':form': formKey(formId).pk };
  let condition = '#folder = :form';
  if (range.beside) {
    condition += ` AND sk ${range.beside.side === 'newer' ? '>' : '<'} :bound`;
    values[':bound'] = submissionKey(formId, range.beside.id).sk;
  } else if (range.createdUpTo) {
    condition += ' AND sk <= :bound';
    values[':bound'] = submissionSortKeyUpTo(range.createdUpTo);
  }
  return {
    TableName: config.tableName,
    IndexName: index.name,
    KeyConditionExpression: condition,
    ExpressionAttributeNames: { '#folder': index.partitionKey },
    ExpressionAttributeValues: values,
    // Newest first: submission ids are UUID v7, so the sort key is time-ordered.
    ScanIndexForward: false,
    ExclusiveStartKey: range.cursor,
  };
}

/** Milliseconds a UUID v7 was drawn at: its first 48 bits. */
function idTime(id: string): number {
  return Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
}

/** The newest and oldest submission ids of a folder: one key from each end. */
async function folderEnds(formId: string, folder: Folder): Promise<[string, string] | undefined> {
  const ends = await Promise.all(
    [false, true].map(async (oldestFirst) => {
      const page = await documents.send(
        new QueryCommand({
          ...folderQuery(formId, folder, {}),
          ScanIndexForward: oldestFirst,
          Limit: 1,
        }),
      );
      return (page.Items?.[0]?.sk as string | undefined)?.slice(SUBMISSION_PREFIX.length);
    }),
  );
  return ends[0] && ends[1] ? [ends[0], ends[1]] : undefined;
}

/**
 * When the folder's oldest submission was posted, or undefined when the
 * folder is empty: one key read from the index's oldest end, its time the
 * UUID v7 id's (drawn just after `createdAt`, so never before it). The
 * pending purger schedules the form's next sweep from it.
 */
export async function oldestPostIn(formId: string, folder: Folder): Promise<string | undefined> {
  const page = await documents.send(
    new QueryCommand({ ...folderQuery(formId, folder, {}), ScanIndexForward: true, Limit: 1 }),
  );
  const id = (page.Items?.[0]?.sk as string | undefined)?.slice(SUBMISSION_PREFIX.length);
  return id ? new Date(idTime(id)).toISOString() : undefined;
}

/**
 * The 0-based position of submission `id` in the folder's newest-first list.
 * DynamoDB has no rank, so the keys on one side of it are counted; which
 * side is guessed from the ids' times against the folder's newest and
 * oldest (posts spread over time put the submission proportionally), so the
 * usual cost is the shorter side, and at worst the longer one.
 */
async function positionInFolder(
  formId: string,
  folder: Folder,
  id: string,
  total: number,
  ends: [string, string],
): Promise<number> {
  const [newest, oldest] = ends.map(idTime) as [number, number];
  const share = newest > oldest ? (newest - idTime(id)) / (newest - oldest) : 0;
  const side = share <= 0.5 ? 'newer' : 'older';
  let count = 0;
  let cursor: Key | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({
        ...folderQuery(formId, folder, { cursor, beside: { id, side } }),
        Select: 'COUNT',
      }),
    );
    count += page.Count ?? 0;
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  // Every older key counted: the rest of the folder, but this one, is newer.
  return side === 'newer' ? count : Math.max(0, total - 1 - count);
}

/**
 * Reads the page of `size` submissions that starts after `skip` of the
 * folder's `total`, newest first. DynamoDB has no offset: the keys before the
 * page are counted (keys only, `Select: COUNT`) from whichever end of the
 * folder is nearer, so the last pages cost what the first ones do. Then one
 * Query reads the page's keys and one BatchGet the submissions.
 */
export async function readFolderPage(
  formId: string,
  folder: Folder,
  page: { skip: number; size: number; total: number },
): Promise<Submission[]> {
  const fromOldest = page.skip > page.total - page.skip - page.size;
  // From the oldest end the page is the slice [total - skip - size, total - skip) read upwards.
  const skip = fromOldest ? Math.max(0, page.total - page.skip - page.size) : page.skip;
  const size = fromOldest ? Math.min(page.size, page.total - page.skip) : page.size;
  const direction = { ScanIndexForward: fromOldest };
  let cursor: Key | undefined;
  for (let remaining = skip; remaining > 0; ) {
    const counted = await documents.send(
      new QueryCommand({
        ...folderQuery(formId, folder, { cursor }),
        ...direction,
        Select: 'COUNT',
        Limit: remaining,
      }),
    );
    remaining -= counted.Count ?? 0;
    cursor = counted.LastEvaluatedKey;
    // The folder ends before the page starts.
    if (!cursor) return [];
  }
  if (size <= 0) return [];
  const keys = await documents.send(
    new QueryCommand({ ...folderQuery(formId, folder, { cursor }), ...direction, Limit: size }),
  );
  return getSubmissionsByKey((keys.Items ?? []) as Key[]);
}

/**
 * Walks a folder newest first in batches of whole submissions: keys from
 * the index, then the submissions by BatchGet. With `readAhead`, one Query
 * takes the keys of that many batches and their BatchGets run at once (a
 * long walk then waits on DynamoDB a few times less), at the cost of holding
 * that many batches. With `createdUpTo`, submissions received later are left
 * out (exactly, by `createdAt`), so a walk started at a moment ignores later
 * arrivals. With `keptFrom`, submissions received earlier (past the form's
 * retention, docs/submissions.md#retention) are left out (read still: at most what the
 * next sweep deletes).
 */
export async function* walkFolder(
  formId: string,
  folder: Folder,
  options: { createdUpTo?: string; keptFrom?: string; batchSize?: number; readAhead?: number } = {},
): AsyncGenerator<Submission[]> {
  const batchSize = Math.min(options.batchSize ?? 100, 100);
  const readAhead = Math.max(1, options.readAhead ?? 1);
  const upTo = options.createdUpTo;
  const from = options.keptFrom;
  let cursor: Key | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({
        ...folderQuery(formId, folder, { cursor, createdUpTo: upTo }),
        Limit: batchSize * readAhead,
      }),
    );
    cursor = page.LastEvaluatedKey;
    const keys = (page.Items ?? []) as Key[];
    const reads: Promise<Submission[]>[] = [];
    for (let i = 0; i < keys.length; i += batchSize) {
      reads.push(getSubmissionsByKey(keys.slice(i, i + batchSize)));
    }
    for (const read of reads) {
      const found = await read;
      const batch = found.filter(
        (submission) => (!upTo || submission.createdAt <= upTo) && isKept(submission, from),
      );
      if (batch.length > 0) yield batch;
    }
  } while (cursor);
}

/** The submissions of one form with these ids (at most 100), newest first; unknown ids are left out. */
export function getSubmissionsById(formId: string, ids: readonly string[]) {
  return getSubmissionsByKey(ids.map((id) => submissionKey(formId, id)));
}

/**
 * BatchGet of up to 100 submission keys, newest first. Keys that no longer
 * hold a submission (deleted since the index was read) are left out;
 * unprocessed keys are retried with backoff.
 */
async function getSubmissionsByKey(keys: readonly Key[]): Promise<Submission[]> {
  return (await getItemsByKey(keys)).map(toSubmission);
}

async function getItemsByKey(keys: readonly Key[]): Promise<Record<string, unknown>[]> {
  const items = await batchGetAll(keys.map((key) => ({ pk: key.pk, sk: key.sk })));
  const id = (item: Record<string, unknown>) => String(item.id);
  return items
    .filter((item) => item.entity === 'submission')
    .sort((a, b) => (id(a) < id(b) ? 1 : id(a) > id(b) ? -1 : 0));
}

/** A submission with what is kept beside it about its sender: `_replyto` and `_subject`. */
export interface StoredSubmission {
  submission: Submission;
  hints: EmailHints;
  /** The hash of the `Idempotency-Key` it was stored under, if any (stored since 2026-12). */
  idempotencyKeyHash?: string;
}

/**
 * As getSubmissionsById, each with its email hints: what the privacy
 * routes read, since the address a person is found by may be its
 * `_replyto` (docs/privacy.md#how-a-person-is-found).
 */
export async function getStoredSubmissionsById(
  formId: string,
  ids: readonly string[],
): Promise<StoredSubmission[]> {
  const items = await getItemsByKey(ids.map((id) => submissionKey(formId, id)));
  return items.map((item) => ({
    submission: toSubmission(item),
    hints: (item.emailHints as EmailHints | undefined) ?? {},
    ...(typeof item.idempotencyKeyHash === 'string'
      ? { idempotencyKeyHash: item.idempotencyKeyHash }
      : {}),
  }));
}

/**
 * A stored submission item as the API shows it: no table plumbing, team,
 * email hints, Idempotency-Key hash or signup hash.
 */
export function toSubmission(item: Record<string, unknown>): Submission {
  const {
    teamId: _team,
    emailHints: _hints,
    idempotencyKeyHash: _key,
    signupHash: _signup,
    ...submission
  } = stripPlumbing<
    Submission & {
      teamId: string;
      emailHints?: unknown;
      idempotencyKeyHash?: unknown;
      signupHash?: unknown;
    }
  >(item);
  return submission;
}

/**
 * The submissions a bulk `target` names, in batches of at most `batchSize`:
 * the form's submissions among `ids` (others are ignored), or the folder's
 * submissions received up to `asOf`.
 */
export async function* targetedSubmissions(
  formId: string,
  target: BulkTarget,
  asOf: (requested: string) => string,
  batchSize: number,
): AsyncGenerator<Submission[]> {
  if ('filter' in target) {
    yield* walkFolder(formId, target.filter, { createdUpTo: asOf(target.asOf), batchSize });
    return;
  }
  const ids = [...new Set(target.ids.filter(isUuid))];
  for (let i = 0; i < ids.length; i += batchSize) {
    const batch = await getSubmissionsById(formId, ids.slice(i, i + batchSize));
    if (batch.length > 0) yield batch;
  }
}

export interface SubmissionListPage {
  items: Submission[];
  page: number;
  pageCount: number;
  total: number;
}

/**
 * One page of a folder (docs/submissions.md#folders-and-paging): `total` from
 * the form's exact folder counter, `around` turned into the page holding that submission when
 * it is in the folder, a page past the end read as the last page.
 */
export async function readSubmissionList(
  formId: string,
  folders: FolderSizes,
  query: ListQuery,
  keptFrom?: string,
): Promise<SubmissionListPage> {
  const total = folders[query.filter];
  let requested = query.page;
  if (query.around && total > 0) {
    const [[anchor], ends] = await Promise.all([
      getSubmissionsById(formId, [query.around]),
      folderEnds(formId, query.filter),
    ]);
    if (anchor && ends && foldersOf(anchor).includes(query.filter)) {
      const position = await positionInFolder(formId, query.filter, anchor.id, total, ends);
      requested = pageHolding(position, query.pageSize);
    }
  }
  const window = pageWindow(total, query.pageSize, requested);
  const items =
    total === 0
      ? []
      : await readFolderPage(formId, query.filter, {
          skip: window.skip,
          size: query.pageSize,
          total,
        });
  // Past the retention: gone at once, though `total` (a counter) drops only when
  // the purger deletes them (docs/submissions.md#retention).
  return {
    items: items.filter((item) => isKept(item, keptFrom)),
    page: window.page,
    pageCount: window.pageCount,
    total,
  };
}

/** How many submissions of the spam folder hold each reason; `none`: spam stored before reasons were kept. */
export type SpamReasonCounts = Record<SpamReason | 'none', number>;

/**
 * One page of the spam folder narrowed to one spam reason
 * (docs/submissions.md#spam-reasons), and how many hold each reason. The
 * reason is not in the folder's keys-only index, so the folder is walked
 * whole (keys, then the submissions by BatchGet, 200 at a time): its cost is
 * the spam folder's size, which the monthly spam cap and the 30 days spam is
 * kept bound (docs/submissions.md#the-reason-filter). Only the ids of the
 * matches are held; the page shown is read again by id.
 */
export async function readSpamByReason(
  formId: string,
  reason: SpamReason,
  query: Pick<ListQuery, 'page' | 'pageSize' | 'around'>,
  keptFrom?: string,
): Promise<SubmissionListPage & { reasonCounts: SpamReasonCounts }> {
  const reasonCounts: SpamReasonCounts = {
    links: 0,
    duplicate: 0,
    moved: 0,
    duplicate_person: 0,
    none: 0,
  };
  const matching: string[] = [];
  for await (const batch of walkFolder(formId, 'spam', { keptFrom, readAhead: 2 })) {
    for (const submission of batch) {
      // The index may lag behind a submission just moved out of spam.
      if (!submission.isSpam) continue;
      reasonCounts[submission.spamReason ?? 'none'] += 1;
      if (submission.spamReason === reason) matching.push(submission.id);
    }
  }
  const total = matching.length;
  const position = query.around ? matching.indexOf(query.around) : -1;
  const requested = position >= 0 ? pageHolding(position, query.pageSize) : query.page;
  const window = pageWindow(total, query.pageSize, requested);
  const ids = matching.slice(window.skip, window.skip + query.pageSize);
  const items = ids.length > 0 ? await getSubmissionsById(formId, ids) : [];
  return { items, page: window.page, pageCount: window.pageCount, total, reasonCounts };
}

/**
 * The form's submissions newest first from the base table (whole items, all
 * folders), `SEARCH_READ_LIMIT` at most and one Query (so one 1 MB page at
 * most), after the submission `after`; `next` is the last one read when more
 * may follow. What a search call reads.
 */
export async function readSubmissionsNewestFirst(
  formId: string,
  options: { after?: string },
): Promise<{ submissions: Submission[]; next: string | null }> {
  const page = await documents.send(
    new QueryCommand({
      TableName: config.tableName,
      KeyConditionExpression: 'pk = :form AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':form': formKey(formId).pk, ':prefix': SUBMISSION_PREFIX },
      ScanIndexForward: false,
      Limit: SEARCH_READ_LIMIT,
      ExclusiveStartKey: options.after ? submissionKey(formId, options.after) : undefined,
    }),
  );
  const submissions = (page.Items ?? []).map(toSubmission);
  const last = submissions.at(-1);
  return { submissions, next: page.LastEvaluatedKey && last ? last.id : null };
}
