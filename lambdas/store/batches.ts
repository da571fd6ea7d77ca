import { type AttributeValue, BatchGetItemCommand } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  type BatchWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { documents, dynamodb } from './client.ts';
import { AGAIN, retrying } from './retries.ts';

/**
 * BatchGet and BatchWrite with their unprocessed requests retried (the one
 * backoff of retries.ts). A module of its own, so a handler that batches
 * nothing does not bundle them.
 */

/** How often a batch may come back with unprocessed requests before giving up. */
const BATCH_ATTEMPTS = 9;

/** Sends `pending` until DynamoDB has processed all of it; `send` returns what is left. */
async function untilProcessed<T>(
  what: string,
  pending: T[],
  send: (batch: T[]) => Promise<T[]>,
): Promise<void> {
  const retries = {
    attempts: BATCH_ATTEMPTS,
    backoff: true,
    exhausted: () => new Error(`DynamoDB kept returning unprocessed ${what}`),
  };
  await retrying(retries, async () => {
    pending = await send(pending);
    return pending.length > 0 ? AGAIN : undefined;
  });
}

type Key = Record<string, unknown>;

/**
 * BatchGet of at most 100 keys of the table, unprocessed keys retried; the
 * items found, in no order. `consistent` for a reader that must see the
 * latest writes.
 */
export async function batchGetAll(
  keys: readonly Key[],
  options: { consistent?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  // DynamoDB refuses a BatchGet of no keys (ValidationException): a page whose index read
  // found nothing (its submissions deleted since they were counted) reads nothing.
  if (keys.length === 0) return [];
  const found: Record<string, unknown>[] = [];
  await untilProcessed('keys', [...keys], async (batch) => {
    const request = { Keys: batch, ConsistentRead: options.consistent };
    const result = await documents.send(
      new BatchGetCommand({ RequestItems: { [config.tableName]: request } }),
    );
    found.push(...(result.Responses?.[config.tableName] ?? []));
    return result.UnprocessedKeys?.[config.tableName]?.Keys ?? [];
  });
  return found;
}

/**
 * As batchGetAll, the items as DynamoDB's JSON (`{ S: "…" }`): what a
 * table-stream image holds, for a reader that hands them on as one.
 */
export async function batchGetImages(
  keys: readonly { pk: string; sk: string }[],
  options: { consistent?: boolean } = {},
): Promise<Record<string, AttributeValue>[]> {
  const found: Record<string, AttributeValue>[] = [];
  await untilProcessed(
    'keys',
    keys.map((key) => ({ pk: { S: key.pk }, sk: { S: key.sk } }) as Record<string, AttributeValue>),
    async (batch) => {
      const request = { Keys: batch, ConsistentRead: options.consistent };
      const result = await dynamodb.send(
        new BatchGetItemCommand({ RequestItems: { [config.tableName]: request } }),
      );
      found.push(...(result.Responses?.[config.tableName] ?? []));
      return result.UnprocessedKeys?.[config.tableName]?.Keys ?? [];
    },
  );
  return found;
}

export type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/** BatchWrite of at most 25 requests on the table, unprocessed ones retried. */
export async function batchWriteAll(requests: readonly WriteRequest[]): Promise<void> {
  await untilProcessed('writes', [...requests], async (batch) => {
    const result = await documents.send(
      new BatchWriteCommand({ RequestItems: { [config.tableName]: batch } }),
    );
    return result.UnprocessedItems?.[config.tableName] ?? [];
  });
}
