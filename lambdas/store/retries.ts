import {
  ConditionalCheckFailedException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  type BatchWriteCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { ServiceError } from '#domain/errors.ts';
import { documents } from './client.ts';
import { type TableTransactItem, transact } from './table.ts';

/**
 * How the store tries again, in one place: a transaction that lost a race,
 * a batch that came back with unprocessed keys, a conditional update.
 */

/**
 * The one backoff policy: full jitter over a ceiling that doubles from 20 ms
 * per attempt up to 1 s, so writers that met on one item spread out instead
 * of meeting again.
 */
export const BACKOFF = { firstMs: 20, maxMs: 1000 } as const;

export function backoffMs(attempt: number): number {
  return Math.random() * Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** attempt);
}

export function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
}

/**
 * Whether a cancelled transaction is worth trying again as it is: another
 * transaction held one of its items, or an item was over its write
 * throughput (DynamoDB cancels with `ThrottlingError` then).
 */
export function cancelledForNow(reasons: readonly { Code?: string }[]): boolean {
  return reasons.some(
    (reason) => reason.Code === 'TransactionConflict' || reason.Code === 'ThrottlingError',
  );
}

/** Returned by an attempt that lost a race and should run again. */
export const AGAIN = Symbol('again');

/**
 * Runs `attempt` (numbered from 1) until it returns something other than
 * `AGAIN`; after `attempts` tries, throws what `exhausted` makes. With
 * `backoff`, waits the backoff between tries; without, retries at once
 * (an attempt that reads fresh data first needs no wait).
 */
export async function retrying<T>(
  options: { attempts: number; backoff: boolean; exhausted: () => Error },
  attempt: (number: number) => Promise<T | typeof AGAIN>,
): Promise<T> {
  for (let number = 1; ; number++) {
    const outcome = await attempt(number);
    if (outcome !== AGAIN) return outcome;
    if (number >= options.attempts) throw options.exhausted();
    if (options.backoff) await pause(number);
  }
}

/**
 * Retries for a transaction that keeps meeting concurrent writers of the same
 * items: with backoff, then `503 busy` with `Retry-After: 1` (the caller may
 * send the same request again) carrying the last cancellation as its cause.
 */
export function busyRetries(attempts: number, message: string, lastError: () => unknown) {
  return {
    attempts,
    backoff: true,
    exhausted: () =>
      new ServiceError(503, 'busy', message, {
        headers: { 'retry-after': '1' },
        cause: lastError(),
      }),
  };
}

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

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/** BatchWrite of at most 25 requests on the table, unprocessed ones retried. */
export async function batchWriteAll(requests: readonly WriteRequest[]): Promise<void> {
  await untilProcessed('writes', [...requests], async (batch) => {
    const result = await documents.send(
      new BatchWriteCommand({ RequestItems: { [config.tableName]: batch } }),
    );
    return result.UnprocessedItems?.[config.tableName] ?? [];
  });
}

/**
 * An UpdateItem whose condition decides whether it applies (the item exists,
 * is still as read, …): true when it did, false when the condition failed.
 */
export async function updateIf(input: Omit<UpdateCommandInput, 'TableName'>): Promise<boolean> {
  try {
    await documents.send(new UpdateCommand({ TableName: config.tableName, ...input }));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * A transaction whose conditions are the answer: undefined when it
 * committed, else the positions of the items whose condition failed. A
 * transaction cancelled by a concurrent writer is tried again (then `503
 * busy`), as its conditions have not been judged.
 */
export async function transactUnlessRefused(
  items: readonly TableTransactItem[],
): Promise<number[] | undefined> {
  let lastError: unknown;
  return retrying(
    busyRetries(5, 'Too many changes at once; try again', () => lastError),
    async () => {
      try {
        await transact(items);
        return undefined;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons = error.CancellationReasons ?? [];
        const refused = reasons.flatMap((reason, i) =>
          reason.Code === 'ConditionalCheckFailed' ? [i] : [],
        );
        if (refused.length > 0) return refused;
        lastError = error;
        if (cancelledForNow(reasons)) return AGAIN;
        throw error;
      }
    },
  );
}
