import { beforeAll, describe, expect, it } from 'vitest';
import { localStore } from '#test/support/store.ts';

/**
 * Seen as a 500 of GET …/submissions while the retention applier deleted a
 * page's submissions between the count and the read: the read's BatchGet
 * had no keys left, which DynamoDB refuses.
 */
describe('batchGetAll', () => {
  let batchGetAll: typeof import('#store/batches.ts').batchGetAll;
  beforeAll(async () => {
    await localStore();
    ({ batchGetAll } = await import('#store/batches.ts'));
  });

  it('reads nothing for no keys, instead of sending DynamoDB a BatchGet it refuses', async () => {
    await expect(batchGetAll([])).resolves.toEqual([]);
  });
});
