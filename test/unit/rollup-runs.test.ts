import { describe, expect, it } from 'vitest';
import { type RollupChange, rollupRuns } from '#domain/summary-counters.ts';

const hour = (key: string) => ({ kind: 'hour' as const, key });
const change = (
  index: number,
  formId: string,
  bucket: RollupChange['bucket'],
  counters: Record<string, number>,
): RollupChange => ({ formId, bucket, counters, sequence: String(1000 + index), index });

describe('a batch’s rollup changes, one write an item (docs/architecture.md#how-the-summary-is-kept)', () => {
  it('adds up each item’s changes, in the order of its first record, with its first and last record', () => {
    const runs = rollupRuns([
      change(0, 'f1', hour('2026112810'), { s: 1, u: 1 }),
      change(1, 'f2', hour('2026112810'), { s: 1 }),
      change(2, 'f1', hour('2026112810'), { s: 1, u: 1, 'cc:FR': 1 }),
      change(3, 'f1', hour('2026112809'), { u: -1 }),
      change(4, 'f1', hour('2026112810'), { u: -1 }),
    ]);
    expect(runs.map(({ changes, ...run }) => ({ ...run, records: changes.length }))).toEqual([
      {
        formId: 'f1',
        bucket: hour('2026112810'),
        counters: { s: 2, u: 1, 'cc:FR': 1 },
        first: '1000',
        last: '1004',
        index: 0,
        records: 3,
      },
      {
        formId: 'f2',
        bucket: hour('2026112810'),
        counters: { s: 1 },
        first: '1001',
        last: '1001',
        index: 1,
        records: 1,
      },
      {
        formId: 'f1',
        bucket: hour('2026112809'),
        counters: { u: -1 },
        first: '1003',
        last: '1003',
        index: 3,
        records: 1,
      },
    ]);
  });

  it('keeps a run whose counters add up to nothing, to take its records; an hour and a month are two items', () => {
    const month = { kind: 'month' as const, key: '202611' };
    const runs = rollupRuns([
      change(0, 'f1', hour('2026112810'), { u: 1 }),
      change(0, 'f1', month, { '20261128': 1 }),
      change(1, 'f1', hour('2026112810'), { u: -1 }),
    ]);
    expect(runs.map((run) => [run.bucket.kind, run.counters, run.first, run.last])).toEqual([
      ['hour', {}, '1000', '1001'],
      ['month', { '20261128': 1 }, '1000', '1000'],
    ]);
  });

  it('leaves the changes it was given as they were', () => {
    const first = change(0, 'f1', hour('2026112810'), { s: 1 });
    rollupRuns([first, change(1, 'f1', hour('2026112810'), { s: 1 })]);
    expect(first.counters).toEqual({ s: 1 });
  });
});
