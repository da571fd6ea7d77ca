import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { localStore } from '../support/store.ts';

/**
 * The store's sharded rate window against DynamoDB Local: a limit spread
 * over shards admits exactly the limit under concurrency, and refuses only
 * once every shard's share is used up. (The HTTP-level limits keep one item
 * at their defaults; the unit `rate-limit.test.ts` covers the shard count.)
 */
let counts: typeof import('../../lambdas/store/request-counts.ts');
let documents: Awaited<ReturnType<typeof localStore>>['documents'];
let keys: typeof import('../../lambdas/store/keys.ts');
let limits: typeof import('../../lambdas/domain/rate-limit.ts');

beforeAll(async () => {
  ({ documents } = await localStore());
  counts = await import('../../lambdas/store/request-counts.ts');
  keys = await import('../../lambdas/store/keys.ts');
  limits = await import('../../lambdas/domain/rate-limit.ts');
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

  it('counts a window of one shard on the unsharded item, as the default limits always did', async () => {
    const scope = `TEST#SHARDS#${crypto.randomUUID()}`;
    const window = limits.windowAt(Date.now(), 60);
    const admitted = await Promise.all(
      Array.from({ length: 8 }, () => counts.admitRequest(scope, window, 5)),
    );
    expect(admitted.filter(Boolean)).toHaveLength(5);
    expect(await hitsOf(scope, window.start)).toBe(8);
  });
});
