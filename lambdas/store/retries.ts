import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { ServiceError } from '#domain/errors.ts';
import { documents } from './client.ts';

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
      new ServiceError('busy', message, {
        headers: { 'retry-after': '1' },
        cause: lastError(),
      }),
  };
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
