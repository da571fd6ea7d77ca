import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { AGAIN, busyRetries, cancelledForNow, retrying } from './retries.ts';
import { type TableTransactItem, transact } from './table.ts';

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
