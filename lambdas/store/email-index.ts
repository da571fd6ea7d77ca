import { batchWriteAll } from './batches.ts';
import { emailIndexKey, emailIndexPartition } from './keys.ts';
import { queryAll, type TableTransactItem } from './table.ts';

/** One submission the email index names. */
export interface IndexedSubmission {
  formId: string;
  submissionId: string;
}

/**
 * The index entries of a new submission, one per address hash: plain Puts
 * in the storing transaction (docs/privacy.md#how-a-person-is-found).
 */
export function emailIndexPuts(
  teamId: string,
  formId: string,
  submissionId: string,
  hashes: readonly string[],
): TableTransactItem[] {
  return hashes.map((hash) => ({
    Put: {
      Item: {
        ...emailIndexKey(teamId, hash, formId, submissionId),
        entity: 'emailIndex',
        formId,
        submissionId,
      },
    },
  }));
}

/** Every submission of the team the index names for this hash (some may be gone since). */
export async function indexedSubmissions(
  teamId: string,
  hash: string,
): Promise<IndexedSubmission[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': emailIndexPartition(teamId, hash) },
    ConsistentRead: true,
  });
  return items.map((item) => ({
    formId: String(item.formId),
    submissionId: String(item.submissionId),
  }));
}

/** Puts index entries outside a transaction (the reindex of older submissions). */
export async function putEmailIndexEntries(
  teamId: string,
  entries: readonly (IndexedSubmission & { hash: string })[],
): Promise<void> {
  for (let i = 0; i < entries.length; i += 25) {
    await batchWriteAll(
      entries.slice(i, i + 25).map((entry) => ({
        PutRequest: {
          Item: {
            ...emailIndexKey(teamId, entry.hash, entry.formId, entry.submissionId),
            entity: 'emailIndex',
            formId: entry.formId,
            submissionId: entry.submissionId,
          },
        },
      })),
    );
  }
}

/** Deletes index entries (those already gone cost a write and change nothing). */
export async function deleteEmailIndexEntries(
  teamId: string,
  entries: readonly (IndexedSubmission & { hash: string })[],
): Promise<void> {
  const unique = new Map(
    entries.map((entry) => {
      const key = emailIndexKey(teamId, entry.hash, entry.formId, entry.submissionId);
      return [`${key.pk}|${key.sk}`, key];
    }),
  );
  const keys = [...unique.values()];
  for (let i = 0; i < keys.length; i += 25) {
    await batchWriteAll(keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } })));
  }
}
