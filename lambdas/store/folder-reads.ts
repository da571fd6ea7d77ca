import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import type { BulkTarget } from '../domain/bulk-target.ts';
import { isUuid } from '../domain/ids.ts';
import { type Folder, type FolderSizes, foldersOf } from '../domain/submission-folders.ts';
import { type ListQuery, pageHolding, pageWindow } from '../domain/submission-list.ts';
import type { Submission } from '../domain/submission-model.ts';
import { documents } from './client.ts';
import { formKey, stripPlumbing, submissionKey, submissionSortKeyUpTo } from './keys.ts';
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
} as const satisfies Record<Folder, { name: string; partitionKey: string }>;

type Key = Record<string, unknown>;

/** Where in a folder a walk starts: after `cursor`, and no newer than `createdUpTo`. */
interface FolderRange {
  cursor?: Key;
  /** ISO time: keys of submissions received later are not read. */
  createdUpTo?: string;
  /** Only keys older than this submission (its id). */
  olderThan?: string;
}

function folderQuery(formId: string, folder: Folder, range: FolderRange) {
  const index = FOLDER_INDEX[folder];
  const values: Record<string, unknown> = { ':form': formKey(formId).pk };
  let condition = '#folder = :form';
  if (range.olderThan) {
    condition += ' AND sk < :bound';
    values[':bound'] = submissionKey(formId, range.olderThan).sk;
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

/**
 * Counts the folder's keys newer than the submission `id` (its position,
 * 0-based, in the newest-first list), reading keys only.
 */
export async function countNewerThan(formId: string, folder: Folder, id: string): Promise<number> {
  const index = FOLDER_INDEX[folder];
  let count = 0;
  let cursor: Key | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({
        TableName: config.tableName,
        IndexName: index.name,
        KeyConditionExpression: '#folder = :form AND sk > :id',
        ExpressionAttributeNames: { '#folder': index.partitionKey },
        ExpressionAttributeValues: {
          ':form': formKey(formId).pk,
          ':id': submissionKey(formId, id).sk,
        },
        Select: 'COUNT',
        ExclusiveStartKey: cursor,
      }),
    );
    count += page.Count ?? 0;
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return count;
}

/**
 * Reads the page of `size` submissions that starts after skipping `skip`
 * keys of the folder, newest first. Skipping counts keys without returning
 * them (DynamoDB has no offset), so page N costs keys-only reads of the
 * N-1 pages before it, then one Query and one BatchGet.
 */
export async function readFolderPage(
  formId: string,
  folder: Folder,
  skip: number,
  size: number,
): Promise<Submission[]> {
  let cursor: Key | undefined;
  for (let remaining = skip; remaining > 0; ) {
    const page = await documents.send(
      new QueryCommand({
        ...folderQuery(formId, folder, { cursor }),
        Select: 'COUNT',
        Limit: remaining,
      }),
    );
    remaining -= page.Count ?? 0;
    cursor = page.LastEvaluatedKey;
    // The folder ends before the page starts.
    if (!cursor) return [];
  }
  const page = await documents.send(
    new QueryCommand({ ...folderQuery(formId, folder, { cursor }), Limit: size }),
  );
  return getSubmissionsByKey((page.Items ?? []) as Key[]);
}

/**
 * Walks a folder newest first in batches of whole submissions: the batch's
 * keys from the index, then the submissions with one BatchGet. With
 * `createdUpTo`, submissions received later are left out (exactly, by
 * `createdAt`), so a walk started at a moment ignores later arrivals.
 */
export async function* walkFolder(
  formId: string,
  folder: Folder,
  options: { createdUpTo?: string; batchSize?: number } = {},
): AsyncGenerator<Submission[]> {
  const batchSize = Math.min(options.batchSize ?? 100, 100);
  let cursor: Key | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({
        ...folderQuery(formId, folder, { cursor, createdUpTo: options.createdUpTo }),
        Limit: batchSize,
      }),
    );
    cursor = page.LastEvaluatedKey;
    const keys = (page.Items ?? []) as Key[];
    if (keys.length === 0) continue;
    let batch = await getSubmissionsByKey(keys);
    if (options.createdUpTo) {
      const upTo = options.createdUpTo;
      batch = batch.filter((submission) => submission.createdAt <= upTo);
    }
    if (batch.length > 0) yield batch;
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
  const found: Submission[] = [];
  let pending = keys.map((key) => ({ pk: key.pk, sk: key.sk }));
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 8) throw new Error('DynamoDB kept returning unprocessed keys');
    if (attempt > 0) await sleep(Math.min(1000, 25 * 2 ** attempt));
    const result = await documents.send(
      new BatchGetCommand({ RequestItems: { [config.tableName]: { Keys: pending } } }),
    );
    for (const item of result.Responses?.[config.tableName] ?? []) {
      if (item.entity !== 'submission') continue;
      const {
        teamId: _team,
        emailHints: _hints,
        ...submission
      } = stripPlumbing<Submission & { teamId: string; emailHints?: unknown }>(item);
      found.push(submission);
    }
    pending = (result.UnprocessedKeys?.[config.tableName]?.Keys ?? []) as typeof pending;
  }
  return found.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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
 * One page of a folder (SPEC.md list rules): `total` from the form's exact
 * folder counter, `around` turned into the page holding that submission when
 * it is in the folder, a page past the end read as the last page.
 */
export async function readSubmissionList(
  formId: string,
  folders: FolderSizes,
  query: ListQuery,
): Promise<SubmissionListPage> {
  const total = folders[query.filter];
  let requested = query.page;
  if (query.around) {
    const [anchor] = await getSubmissionsById(formId, [query.around]);
    if (anchor && foldersOf(anchor).includes(query.filter)) {
      const position = await countNewerThan(formId, query.filter, anchor.id);
      requested = pageHolding(position, query.pageSize);
    }
  }
  const window = pageWindow(total, query.pageSize, requested);
  const items =
    total === 0 ? [] : await readFolderPage(formId, query.filter, window.skip, query.pageSize);
  return { items, page: window.page, pageCount: window.pageCount, total };
}
