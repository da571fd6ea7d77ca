import { describe, expect, it } from 'vitest';
import { INDEXES } from '#store/schema.ts';
import {
  type Item,
  indexWrites,
  itemSize,
  readUnits,
  tableWriteUnits,
} from '#test/bench/capacity-units.ts';

// bench:partitions prices every item write with these rules (DynamoDB's, not
// DynamoDB Local's): a wrong rule moves every figure the bench prints.

const s = (value: string) => ({ S: value });
const pad = (bytes: number) => 'x'.repeat(bytes);

describe('item size', () => {
  it('counts names and values: strings by their UTF-8 bytes, numbers by digit pairs', () => {
    expect(itemSize({ pk: s('a'), sk: s('b') })).toBe(6);
    expect(itemSize({ n: { N: '12345' } })).toBe(1 + 3 + 1);
    expect(itemSize({ e: s('é') })).toBe(1 + 2);
  });

  it('counts a map member by its name and value plus a byte, the map 3 more', () => {
    expect(itemSize({ m: { M: { x: s('yy') } } })).toBe(1 + 3 + (1 + 1 + 2));
    expect(itemSize({ l: { L: [s('a'), { N: '7' }] } })).toBe(1 + 3 + (1 + 1) + (1 + 2));
  });

  it('reads the Streams client’s {} (an empty map) as 3 bytes', () => {
    expect(itemSize({ m: {} as never })).toBe(1 + 3);
  });
});

describe('table write units', () => {
  const small: Item = { pk: s('A'), sk: s('B') };
  const large: Item = { pk: s('A'), sk: s('B'), d: s(pad(1500)) };

  it('is 1 a KB of the larger image, at least 1', () => {
    expect(tableWriteUnits(undefined, small, false)).toBe(1);
    expect(tableWriteUnits(undefined, large, false)).toBe(2);
    expect(tableWriteUnits(large, small, false)).toBe(2);
    expect(tableWriteUnits(small, undefined, false)).toBe(1);
  });

  it('doubles each item of a transaction on its own, not the transaction’s total size', () => {
    // DynamoDB Local bills three 1.5 KB items in one transaction 6; DynamoDB 3 × 2 × 2.
    expect(3 * tableWriteUnits(undefined, large, true)).toBe(12);
  });
});

describe('index write units', () => {
  const submission = (more: Item): Item => ({
    pk: s('FORM#f'),
    sk: s('SUB#1'),
    answers: s(pad(3000)),
    ...more,
  });

  it('a new member of a keys-only index is 1 unit on its partition, whatever the item’s size', () => {
    const writes = indexWrites(undefined, submission({ subAllPk: s('FORM#f') }), INDEXES.subAll);
    expect(writes).toEqual([{ index: 'subAll', partition: 'FORM#f', units: 1 }]);
  });

  it('an item leaving the index (its key removed) is 1 unit on the old partition', () => {
    const before = submission({ subUnreadPk: s('FORM#f') });
    const after = submission({});
    expect(indexWrites(before, after, INDEXES.subUnread)).toEqual([
      { index: 'subUnread', partition: 'FORM#f', units: 1 },
    ]);
  });

  it('an index key that changes is a delete on the old partition and a put on the new', () => {
    const before = submission({ subAllPk: s('FORM#f') });
    const after = submission({ subAllPk: s('FORM#g') });
    expect(indexWrites(before, after, INDEXES.subAll)).toEqual([
      { index: 'subAll', partition: 'FORM#f', units: 1 },
      { index: 'subAll', partition: 'FORM#g', units: 1 },
    ]);
  });

  it('a change outside the projection writes nothing to the index', () => {
    const before = submission({ subAllPk: s('FORM#f'), read: { BOOL: false } });
    const after = submission({ subAllPk: s('FORM#f'), read: { BOOL: true } });
    expect(indexWrites(before, after, INDEXES.subAll)).toEqual([]);
  });

  it('a change of an included attribute rewrites the entry, the larger of the two', () => {
    const form = (name: string): Item => ({
      pk: s('FORM#f'),
      sk: s('FORM'),
      parentPk: s('TEAM#t#FORMS'),
      createdAt: s('2026-11-28'),
      name: s(name),
      notIncluded: s(pad(5000)),
    });
    expect(indexWrites(form('a'), form(pad(1100)), INDEXES.byParent)).toEqual([
      { index: 'byParent', partition: 'TEAM#t#FORMS', units: 2 },
    ]);
    const other = { ...form('a'), notIncluded: s('changed') };
    expect(indexWrites(form('a'), other, INDEXES.byParent)).toEqual([]);
  });

  it('is never doubled by a transaction (the table write is)', () => {
    const after = submission({ subAllPk: s('FORM#f') });
    expect(tableWriteUnits(undefined, after, true)).toBe(6);
    expect(indexWrites(undefined, after, INDEXES.subAll)[0]?.units).toBe(1);
  });
});

describe('read units', () => {
  it('is 1 a 4 KB rounded up, half when eventually consistent', () => {
    expect(readUnits(0, true)).toBe(1);
    expect(readUnits(4097, true)).toBe(2);
    expect(readUnits(100, false)).toBe(0.5);
  });
});
