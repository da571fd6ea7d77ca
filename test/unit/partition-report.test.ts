import { describe, expect, it } from 'vitest';
import type { ItemWrite } from '#test/bench/partition-recorder.ts';
import {
  hottest,
  kindOf,
  loadsOf,
  pairAndPrice,
  postsIn,
  windowOf,
} from '#test/bench/partition-report.ts';
import type { ItemChange } from '#test/bench/table-stream.ts';

// bench:partitions pairs each recorded write with its stream record and sums
// units per key; these are the rules its figures rest on.

const s = (value: string) => ({ S: value });

const write = (pk: string, sk: string, more: Partial<ItemWrite> = {}): ItemWrite => ({
  pk,
  sk,
  action: 'Update',
  transactional: false,
  caller: 'submit',
  sentAt: 0,
  at: 1,
  ok: true,
  ...more,
});

describe('pairing writes with the stream', () => {
  it('prices a transactional submission put from its image: table 2, one unit in each folder index', () => {
    const item = {
      pk: s('FORM#f'),
      sk: s('SUB#1'),
      subAllPk: s('FORM#f'),
      subUnreadPk: s('FORM#f'),
    };
    const { priced, unrecordedChanges } = pairAndPrice(
      [write('FORM#f', 'SUB#1', { action: 'Put', transactional: true })],
      [{ pk: 'FORM#f', sk: 'SUB#1', sequence: '100', after: item }],
    );
    expect(unrecordedChanges).toEqual([]);
    expect(priced).toHaveLength(1);
    expect(priced[0]).toMatchObject({ kind: 'submission', tableUnits: 2, basis: 'images' });
    expect(priced[0]!.indexUnits).toEqual([
      { index: 'subAll', partition: 'FORM#f', units: 1 },
      { index: 'subUnread', partition: 'FORM#f', units: 1 },
    ]);
  });

  it('pairs writes of one item with its records in order, by sequence number as a number', () => {
    const big = { pk: s('RATE#x'), sk: s('RATE'), d: s('x'.repeat(1500)) };
    const small = { pk: s('RATE#x'), sk: s('RATE') };
    const changes: ItemChange[] = [
      // Sequence numbers grow in length: 99 comes before 100.
      { pk: 'RATE#x', sk: 'RATE', sequence: '100', before: small, after: big },
      { pk: 'RATE#x', sk: 'RATE', sequence: '99', after: small },
    ];
    const { priced } = pairAndPrice(
      [write('RATE#x', 'RATE', { at: 2 }), write('RATE#x', 'RATE', { at: 1 })],
      changes,
    );
    expect(priced.map((p) => [p.write.at, p.tableUnits])).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it('reports a stream record no recorded write explains', () => {
    const { unrecordedChanges } = pairAndPrice(
      [],
      [{ pk: 'FORM#f', sk: 'SUB#9', sequence: '1', after: { pk: s('FORM#f'), sk: s('SUB#9') } }],
    );
    expect(unrecordedChanges).toHaveLength(1);
  });

  it('prices a failed write as if written, and one that left no record at the minimum', () => {
    const { priced } = pairAndPrice(
      [
        write('DUP#f#h', 'DUP', { ok: false, transactional: true, error: 'TransactionCanceled' }),
        write('FORM#f', 'FORM#COLUMNS', { transactional: true }),
      ],
      [],
    );
    expect(priced.map((p) => [p.basis, p.tableUnits])).toEqual([
      ['failed, assumed', 2],
      ['no record, minimum', 2],
    ]);
  });
});

describe('loads per key', () => {
  it('puts a post’s writes on their partition keys and finds the hottest', () => {
    const posts = [
      { at: 0, stored: true },
      { at: 1, stored: true },
    ];
    const item = (sk: string) => ({ pk: s('FORM#f'), sk: s(sk), subAllPk: s('FORM#f') });
    const { priced } = pairAndPrice(
      [
        write('FORM#f', 'SUB#1', { action: 'Put', transactional: true }),
        write('FORM#f', 'SUB#2', { action: 'Put', transactional: true }),
        write('TEAM#t', 'USAGE#2026-11#03', { transactional: true }),
      ],
      [
        { pk: 'FORM#f', sk: 'SUB#1', sequence: '1', after: item('SUB#1') },
        { pk: 'FORM#f', sk: 'SUB#2', sequence: '2', after: item('SUB#2') },
        {
          pk: 'TEAM#t',
          sk: 'USAGE#2026-11#03',
          sequence: '3',
          after: { pk: s('TEAM#t'), sk: s('x') },
        },
      ],
    );
    const loads = loadsOf(priced, []);
    expect(hottest(loads.partitions, posts, 'table')).toMatchObject({
      load: { key: 'FORM#f' },
      perPost: 2,
    });
    expect(hottest(loads.partitions, posts, 'subAll')).toMatchObject({ perPost: 1 });
  });

  it('sets a rate window’s and a summary bucket’s units against the posts of their minute and hour', () => {
    const minute = Date.UTC(2026, 10, 28, 9, 30);
    expect(windowOf(`RATE#SUBMIT#FORM#f#2#${minute}`)).toEqual([minute, minute + 60_000]);
    expect(windowOf(`RATE#SUBMIT#FORM#f#2#${minute} RATE`)).toEqual([minute, minute + 60_000]);
    expect(windowOf('FORM#f STAT#H2026112809')).toEqual([
      Date.UTC(2026, 10, 28, 9),
      Date.UTC(2026, 10, 28, 10),
    ]);
    expect(windowOf('FORM#f')).toBeUndefined();
    const posts = [
      { at: minute - 1, stored: true },
      { at: minute, stored: true },
      { at: minute + 59_999, stored: true },
      { at: minute + 10, stored: false },
    ];
    expect(postsIn(posts, [minute, minute + 60_000])).toBe(2);
    expect(postsIn(posts, undefined)).toBe(3);
  });

  it('names items by the store’s key layout', () => {
    expect(kindOf('FORM#f', 'FORM#COUNT#07')).toBe('form counter shard');
    expect(kindOf('TEAM#t', 'USAGE#2026-11#NEAR')).toBe('usage shard');
    expect(kindOf('TEAM#t#EMAIL#abc', 'HELD#f#s')).toBe('email index entry');
    expect(kindOf('RATE#SUBMIT#FORM#f#1', 'RATE')).toBe('rate window (form)');
  });
});
