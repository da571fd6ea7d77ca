import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { localStore } from '#test/support/store.ts';
import { throttle } from '#test/support/throttle.ts';

/**
 * The store's sharded rate window against DynamoDB Local: a limit spread
 * over shards admits exactly the limit under concurrency, and refuses only
 * once every shard's share is used up. (The HTTP-level limits keep one item
 * at their defaults; the unit `rate-limit.test.ts` covers the shard count.)
 */
let counts: typeof import('#store/request-counts.ts');
let documents: Awaited<ReturnType<typeof localStore>>['documents'];
let keys: typeof import('#store/keys.ts');
let limits: typeof import('#domain/rate-limit.ts');

beforeAll(async () => {
  ({ documents } = await localStore());
  counts = await import('#store/request-counts.ts');
  keys = await import('#store/keys.ts');
  limits = await import('#domain/rate-limit.ts');
});

const hitsOf = async (scope: string, start: number) => {
  const { Item } = await documents.send(
    new GetCommand({
      TableName: process.env.TABLE_NAME,
      Key: keys.rateWindowKey(scope, start),
      ConsistentRead: true,
    }),
  );
  return Number(Item?.hits ?? 0);
};

describe('sharded rate window', () => {
  it('admits all of 40 concurrent requests over 4 shards of 10, then refuses 20 more', async () => {
    const scope = `TEST#SHARDS#${crypto.randomUUID()}`;
    const window = limits.windowAt(Date.now(), 60);
    const burst = (n: number) =>
      Promise.all(Array.from({ length: n }, () => counts.admitRequest(scope, window, 40, 4)));
    // Each request lands on a random shard first: only trying the others admits all 40.
    expect((await burst(40)).filter(Boolean)).toHaveLength(40);
    for (let k = 0; k < 4; k++) {
      expect(await hitsOf(`${scope}#${k}`, window.start)).toBeGreaterThanOrEqual(10);
    }
    expect((await burst(20)).filter(Boolean)).toHaveLength(0);
  });

  it('admits while any shard has room: three shards used up, the fourth still takes its share', async () => {
    const scope = `TEST#SHARDS#${crypto.randomUUID()}`;
    const window = limits.windowAt(Date.now(), 60);
    for (const k of [0, 1, 2]) {
      for (let i = 0; i < 10; i++) await counts.countRequest(`${scope}#${k}`, window);
    }
    const results: boolean[] = [];
    for (let i = 0; i < 12; i++) results.push(await counts.admitRequest(scope, window, 40, 4));
    expect(results).toEqual([...Array(10).fill(true), false, false]);
  });

  it('counts a window of one shard on the unsharded item; once it is known full, a refusal writes nothing', async () => {
    const scope = `TEST#SHARDS#${crypto.randomUUID()}`;
    const window = limits.windowAt(Date.now(), 60);
    const admitted: boolean[] = [];
    for (let i = 0; i < 8; i++) admitted.push(await counts.admitRequest(scope, window, 5));
    expect(admitted).toEqual([true, true, true, true, true, false, false, false]);
    // The 6th found the window full; the 7th and 8th did not write again.
    expect(await hitsOf(scope, window.start)).toBe(6);
  });

  it('passes over a throttled shard, and answers 503 busy when only throttled shards may have room (DynamoDB client middleware injects ProvisionedThroughputExceededException, which DynamoDB Local never sends)', async () => {
    const { dynamodb } = await import('#store/client.ts');
    const scope = `TEST#SHARDS#${crypto.randomUUID()}`;
    const window = limits.windowAt(Date.now(), 60);
    const unthrottle = throttle(dynamodb, ({ pk }) => pk === `RATE#${scope}#0#${window.start}`);
    try {
      const admitted: boolean[] = [];
      for (let i = 0; i < 30; i++) admitted.push(await counts.admitRequest(scope, window, 40, 4));
      expect(admitted.every(Boolean), 'shards 1 to 3 take their 30').toBe(true);
      await expect(counts.admitRequest(scope, window, 40, 4)).rejects.toMatchObject({
        status: 503,
        code: 'busy',
      });
    } finally {
      unthrottle();
    }
  });
});
