import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { newForm, storedItems } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';

/**
 * DynamoDB cancels a transaction with `ThrottlingError` reasons when an item
 * is over its write throughput; DynamoDB Local never does, so a middleware on
 * the store's one DynamoDB client answers the first TransactWriteItems that
 * way (the SDK's own exception, as the service would send it).
 */
async function withThrottledTransactions(times: number) {
  await localStore();
  const { dynamodb } = await import('#store/client.ts');
  const { acceptSubmission } = await import('#http/submit/pipeline.ts');
  let left = times;
  const name = `throttle-${crypto.randomUUID()}`;
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand' && left > 0) {
        left -= 1;
        const items = (args.input as { TransactItems: unknown[] }).TransactItems;
        throw new TransactionCanceledException({
          message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
          $metadata: { httpStatusCode: 400 },
          CancellationReasons: items.map(() => ({
            Code: 'ThrottlingError',
            Message:
              'Throughput exceeds the current capacity for one or more global secondary indexes.',
          })),
        });
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    acceptSubmission,
    thrown: () => times - left,
    remove: () => dynamodb.middlewareStack.remove(name),
  };
}

const post = (key: string, answers: Record<string, string>) => ({
  key,
  contentType: 'application/json',
  body: Buffer.from(JSON.stringify(answers)),
  ip: '203.0.113.10',
  country: undefined,
  deviceClass: undefined,
  userAgent: 'throttle-test',
  origin: undefined,
  referer: undefined,
});

describe('a transaction DynamoDB cancels for throttling (client mocked to inject ThrottlingError)', () => {
  it('is retried like a conflict: the post is stored once', async () => {
    const form = await newForm('pro', { notifyEnabled: false });
    const throttled = await withThrottledTransactions(2);
    try {
      const outcome = await throttled.acceptSubmission(post(form.key, { a: 'x' }), new Date());
      expect(outcome.kind).toBe('stored');
      expect(throttled.thrown()).toBe(2);
    } finally {
      throttled.remove();
    }
    expect(await storedItems(form.id)).toHaveLength(1);
  });

  it('answers 503 busy with Retry-After when it keeps being throttled, and stores nothing', async () => {
    const form = await newForm('pro', { notifyEnabled: false });
    const throttled = await withThrottledTransactions(1000);
    try {
      await expect(
        throttled.acceptSubmission(post(form.key, { a: 'y' }), new Date()),
      ).rejects.toMatchObject({ status: 503, code: 'busy', headers: { 'retry-after': '1' } });
    } finally {
      throttled.remove();
    }
    expect(await storedItems(form.id)).toEqual([]);
  });
});
