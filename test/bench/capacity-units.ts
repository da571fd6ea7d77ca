/**
 * What DynamoDB bills for one item write or read, from the item's images, by
 * the rules AWS documents (pure; for `npm run bench:partitions`). DynamoDB
 * Local does not follow them for transactions: it bills a transaction's
 * table writes by the items' total size (three 1.5 KB items: 6 units where
 * DynamoDB bills 12) and doubles its index writes (DynamoDB does not), so the
 * bench computes units per item here and prints Local's own figures beside.
 *
 * - Item size: attribute names plus values (strings and binaries by their
 *   bytes, a number about one byte per two significant digits plus one, a
 *   list or map 3 bytes plus 1 a member plus its members, a map member's
 *   name too; a boolean or null 1).
 * - Table write: 1 unit per KB of the larger of the item before and after
 *   (at least 1); a transactional write twice that. A ConditionCheck in a
 *   transaction is billed as a transactional write of the item it checks.
 * - Index write, per global secondary index, on the index entry (the
 *   table's keys, the index's keys and the projected attributes), never
 *   doubled by a transaction: an item joining the index 1 unit per KB of the
 *   new entry, leaving it 1 per KB of the old one, changing its index key
 *   both (a delete from the old partition, a put on the new one), changing a
 *   projected attribute the larger of the two, anything else nothing. (The
 *   transaction rule and the per-entry sizing were captured against
 *   DynamoDB by the dynoxide project's conformance suite; the rest is the
 *   developer guide's "Global secondary indexes: writes".)
 * - Read: 1 unit per 4 KB (a Query sums its items before rounding), half for
 *   an eventually consistent read, twice for a transactional one.
 */
import type { IndexDefinition } from '#store/schema.ts';
import { TABLE_KEYS } from '#store/schema.ts';

/** An attribute value as the wire and the Streams client carry it. */
export type AttributeValue =
  | { S: string }
  | { N: string }
  | { B: Uint8Array | string }
  | { BOOL: boolean }
  | { NULL: boolean }
  | { SS: string[] }
  | { NS: string[] }
  | { BS: (Uint8Array | string)[] }
  | { L: AttributeValue[] }
  | { M: Record<string, AttributeValue> };

export type Item = Record<string, AttributeValue>;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** A binary: bytes from the Streams client, base64 on the wire. */
const binarySize = (value: Uint8Array | string) =>
  typeof value === 'string' ? Buffer.from(value, 'base64').length : value.length;

/** About one byte per two significant digits, plus one (leading and trailing zeros trimmed). */
export function numberSize(text: string): number {
  const digits = text
    .replace(/^[+-]/, '')
    .replace(/e.*$/i, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(digits.length / 2) + 1;
}

export function attributeSize(value: AttributeValue): number {
  if (typeof value !== 'object' || value === null) {
    throw new Error(`not an attribute value: ${JSON.stringify(value)}`);
  }
  // The SDK's unions may carry the other members as undefined: the one set is the value.
  const set = Object.entries(value).find(([, v]) => v !== undefined);
  // The Streams client reads an empty map ({"M":{}}) as {}.
  if (!set) return 3;
  const [type, v] = set as [string, never];
  switch (type) {
    case 'S':
      return utf8(v);
    case 'N':
      return numberSize(v);
    case 'B':
      return binarySize(v);
    case 'BOOL':
    case 'NULL':
      return 1;
    case 'SS':
      return (v as string[]).reduce((sum, s) => sum + utf8(s), 0);
    case 'NS':
      return (v as string[]).reduce((sum, n) => sum + numberSize(n), 0);
    case 'BS':
      return (v as (Uint8Array | string)[]).reduce((sum, b) => sum + binarySize(b), 0);
    case 'L':
      return (
        3 + (v as AttributeValue[]).reduce((sum, member) => sum + 1 + attributeSize(member), 0)
      );
    case 'M':
      return (
        3 +
        Object.entries(v as Record<string, AttributeValue>).reduce(
          (sum, [name, member]) => sum + utf8(name) + 1 + attributeSize(member),
          0,
        )
      );
    default:
      throw new Error(`not an attribute value: ${type}`);
  }
}

export function itemSize(item: Item): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += utf8(name) + attributeSize(value);
  return size;
}

/** Write units for `bytes`: 1 per KB, rounded up, at least 1. */
export const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

/** Read units for `bytes`: 1 per 4 KB rounded up (at least 1), half when eventually consistent. */
export const readUnits = (bytes: number, consistent: boolean) =>
  Math.max(1, Math.ceil(bytes / 4096)) * (consistent ? 1 : 0.5);

/** The table's units for one item write: the larger image, twice in a transaction. */
export function tableWriteUnits(
  before: Item | undefined,
  after: Item | undefined,
  transactional: boolean,
): number {
  const units = Math.max(
    before ? writeUnits(itemSize(before)) : 0,
    after ? writeUnits(itemSize(after)) : 0,
    1,
  );
  return transactional ? 2 * units : units;
}

/** The entry an item has in `index`, or undefined when it is not in it (sparse). */
export function indexEntry(
  item: Item | undefined,
  index: IndexDefinition,
): { partition: string; sortKey: string; entry: Item } | undefined {
  const partition = item?.[index.partitionKey];
  const sortKey = item?.[index.sortKey];
  if (!item || !partition || !sortKey) return undefined;
  const kept = new Set<string>([
    TABLE_KEYS.partitionKey,
    TABLE_KEYS.sortKey,
    index.partitionKey,
    index.sortKey,
  ]);
  if (index.projection === 'INCLUDE') for (const name of index.include ?? []) kept.add(name);
  const entry: Item = {};
  for (const [name, value] of Object.entries(item)) {
    if (index.projection === 'ALL' || kept.has(name)) entry[name] = value;
  }
  return { partition: scalarText(partition), sortKey: scalarText(sortKey), entry };
}

/** One index write: the index partition it lands on and its units. */
export interface IndexWrite {
  index: string;
  partition: string;
  units: number;
}

/** The index writes one item write makes (none when its entry does not change). */
export function indexWrites(
  before: Item | undefined,
  after: Item | undefined,
  index: IndexDefinition,
): IndexWrite[] {
  const old = indexEntry(before, index);
  const next = indexEntry(after, index);
  const write = (partition: string, entry: Item): IndexWrite => ({
    index: index.name,
    partition,
    units: writeUnits(itemSize(entry)),
  });
  if (!old && !next) return [];
  if (!old) return [write(next!.partition, next!.entry)];
  if (!next) return [write(old.partition, old.entry)];
  if (old.partition !== next.partition || old.sortKey !== next.sortKey) {
    return [write(old.partition, old.entry), write(next.partition, next.entry)];
  }
  if (sameItem(old.entry, next.entry)) return [];
  const units = Math.max(writeUnits(itemSize(old.entry)), writeUnits(itemSize(next.entry)));
  return [{ index: index.name, partition: next.partition, units }];
}

function scalarText(value: AttributeValue): string {
  const v = Object.values(value).find((member) => member !== undefined);
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  return JSON.stringify(value);
}

function sameItem(a: Item, b: Item): boolean {
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return false;
  return names.every((name) => b[name] !== undefined && sameValue(a[name]!, b[name]!));
}

function sameValue(a: AttributeValue, b: AttributeValue): boolean {
  const normal = (value: unknown): unknown => {
    if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
    if (Array.isArray(value)) return value.map(normal);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value)
          .sort(([x], [y]) => (x < y ? -1 : 1))
          .map(([k, v]) => [k, normal(v)]),
      );
    }
    return value;
  };
  return JSON.stringify(normal(a)) === JSON.stringify(normal(b));
}
