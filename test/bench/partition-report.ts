/**
 * The partition model of one busy form, from a recording (pure; for
 * `npm run bench:partitions`): each committed item write of the recorder
 * (./partition-recorder.ts) is paired with its record on the table's stream
 * (./table-stream.ts), whose images give the write's units on the table and
 * on each index (./capacity-units.ts); then units are summed per kind of
 * item, per partition key (the table's and each index's), per item, and
 * per function, and set against the posts stored while each key was being
 * written.
 */
import {
  AUDIT_PREFIX,
  DELIVERY_PREFIX,
  FORM_COUNTER_PREFIX,
  SUBMISSION_PREFIX,
  SUPPRESSION_PREFIX,
} from '#store/keys.ts';
import { INDEXES } from '#store/schema.ts';
import { type Item, indexWrites, itemSize, tableWriteUnits, writeUnits } from './capacity-units.ts';
import type { ItemRead, ItemWrite } from './partition-recorder.ts';
import { bySequence, type ItemChange } from './table-stream.ts';

/** DynamoDB's ceilings for one partition, a second. */
export const PARTITION_WCU = 1000;
export const PARTITION_RCU = 3000;

export interface Post {
  /** Wall-clock milliseconds halfway through the request: what a time window is matched on. */
  at: number;
  stored: boolean;
}

/** How a write's units were found. */
export type Basis =
  /** Paired with its stream record: units from the images before and after. */
  | 'images'
  /** A ConditionCheck: billed as a transactional write of the item it reads (its last image). */
  | 'checked item'
  /** Failed (no stream record): billed as if written, on what was sent (Put) or 1 KB. */
  | 'failed, assumed'
  /** Committed but no stream record (an update that changed nothing): the minimum. */
  | 'no record, minimum';

/** One item write with its units, on the table and on each index partition it touched. */
export interface PricedWrite {
  write: ItemWrite;
  kind: string;
  tableUnits: number;
  indexUnits: { index: string; partition: string; units: number }[];
  basis: Basis;
}

/** What DynamoDB Local's stream showed that the recorder never saw (must be none). */
export interface Pairing {
  priced: PricedWrite[];
  unrecordedChanges: ItemChange[];
}

const keyId = (pk: string, sk: string) => `${pk}\u0000${sk}`;

/**
 * Pairs each committed write with its stream record, per item in order (the
 * recorder's answer order, the stream's sequence order), and prices each.
 */
export function pairAndPrice(
  writes: readonly ItemWrite[],
  changes: readonly ItemChange[],
): Pairing {
  const changesOf = new Map<string, ItemChange[]>();
  for (const change of [...changes].sort((a, b) => bySequence(a.sequence, b.sequence))) {
    const id = keyId(change.pk, change.sk);
    changesOf.set(id, [...(changesOf.get(id) ?? []), change]);
  }
  const lastImage = new Map<string, Item | undefined>();
  for (const [id, list] of changesOf) lastImage.set(id, list.at(-1)!.after ?? list.at(-1)!.before);
  const used = new Map<string, number>();
  const ordered = [...writes].sort((a, b) => a.at - b.at || a.sentAt - b.sentAt);
  const priced: PricedWrite[] = ordered.map((write) => {
    const id = keyId(write.pk, write.sk);
    const kind = kindOf(write.pk, write.sk);
    if (write.action === 'ConditionCheck') {
      const image = lastImage.get(id);
      return {
        write,
        kind,
        tableUnits: 2 * writeUnits(image ? itemSize(image) : 0),
        indexUnits: [],
        basis: 'checked item',
      };
    }
    if (!write.ok) {
      const units = writeUnits(write.sent ? itemSize(write.sent) : 0);
      return {
        write,
        kind,
        tableUnits: write.transactional ? 2 * units : units,
        indexUnits: [],
        basis: 'failed, assumed',
      };
    }
    const taken = used.get(id) ?? 0;
    const change = changesOf.get(id)?.[taken];
    if (!change) {
      return {
        write,
        kind,
        tableUnits: write.transactional ? 2 : 1,
        indexUnits: [],
        basis: 'no record, minimum',
      };
    }
    used.set(id, taken + 1);
    return {
      write,
      kind,
      tableUnits: tableWriteUnits(change.before, change.after, write.transactional),
      indexUnits: Object.values(INDEXES).flatMap((index) =>
        indexWrites(change.before, change.after, index),
      ),
      basis: 'images',
    };
  });
  const unrecordedChanges = [...changesOf].flatMap(([id, list]) => list.slice(used.get(id) ?? 0));
  return { priced, unrecordedChanges };
}

/** What an item is, by the store's key layout (lambdas/store/keys.ts). */
export function kindOf(pk: string, sk: string): string {
  if (pk.startsWith('FORM#')) {
    if (sk.startsWith(SUBMISSION_PREFIX)) return 'submission';
    if (sk.startsWith(FORM_COUNTER_PREFIX)) return 'form counter shard';
    if (sk === 'FORM#COLUMNS') return 'column catalogue';
    if (sk === 'FORM') return 'form';
    if (sk.startsWith('SPAM#')) return 'spam counter';
    if (sk.startsWith(DELIVERY_PREFIX)) return 'webhook delivery log';
    if (sk.startsWith('IDELIVERY#')) return 'integration delivery log';
    if (sk.startsWith('EMAIL#')) return 'email mark';
    if (sk.startsWith('STAT#')) return 'summary bucket';
    if (sk.startsWith('SEEN#')) return 'signup mark';
    if (sk.startsWith('IDEM#')) return 'idempotency record';
    return `form's ${sk.split('#')[0]}`;
  }
  if (pk.startsWith('TEAM#')) {
    if (pk.includes('#EMAIL#')) return 'email index entry';
    if (sk.startsWith('USAGE#')) return 'usage shard';
    if (sk.startsWith(SUPPRESSION_PREFIX)) return 'suppressed address';
    if (sk.startsWith(AUDIT_PREFIX)) return 'audit event';
    if (sk === 'TEAM') return 'team';
    return `team's ${sk.split('#')[0]}`;
  }
  if (pk.startsWith('RATE#SUBMIT#FORM#')) return 'rate window (form)';
  if (pk.startsWith('RATE#SUBMIT#IP#')) return 'rate window (visitor)';
  if (pk.startsWith('RATE#')) return 'rate window (other)';
  if (pk.startsWith('DUP#')) return 'duplicate mark';
  if (pk.startsWith('PERSON#')) return 'person place';
  if (pk.startsWith('FKEY#')) return 'form key';
  if (pk.startsWith('UPLOAD#')) return 'upload claim';
  return pk.split('#')[0] ?? pk;
}

/** A key as printed: the bench's form and team ids, times and hashes named, not spelled. */
export function shapeOf(key: string, names: Record<string, string>): string {
  let shape = key;
  for (const [id, name] of Object.entries(names)) shape = shape.split(id).join(name);
  return shape
    .replace(/[0-9a-f]{64}/g, '<sha256>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/#\d{13}(?= |$)/, '#<minute>')
    .replace(/\d+\.\d+\.\d+\.\d+/g, '<visitor>');
}

/** Units on one key (a partition key of the table or an index, or one item). */
export interface KeyLoad {
  on: string;
  key: string;
  /** The time window the key is for (a rate window's minute, a summary bucket's hour), if any. */
  window?: TimeWindow;
  units: number;
  writes: number;
  byKind: Map<string, number>;
  byCaller: Map<string, number>;
}

function addLoad(
  loads: Map<string, KeyLoad>,
  on: string,
  key: string,
  units: number,
  kind: string,
  caller: string,
) {
  const id = `${on}\u0000${key}`;
  let load = loads.get(id);
  if (!load) {
    load = {
      on,
      key,
      window: windowOf(key),
      units: 0,
      writes: 0,
      byKind: new Map(),
      byCaller: new Map(),
    };
    loads.set(id, load);
  }
  load.units += units;
  load.writes += 1;
  load.byKind.set(kind, (load.byKind.get(kind) ?? 0) + units);
  load.byCaller.set(caller, (load.byCaller.get(caller) ?? 0) + units);
}

/** [start, end) in wall-clock milliseconds. */
export type TimeWindow = readonly [number, number];

/**
 * The time window a key counts for, from the store's key layout: a rate
 * window's minute (`RATE#<scope>#<start ms>`), a summary bucket's UTC hour
 * (`STAT#H<YYYYMMDDHH>`). A key (or an item, `pk sk`) without one counts
 * for every post.
 */
export function windowOf(key: string): TimeWindow | undefined {
  const rate = /^RATE#.*#(\d{13})(?: |$)/.exec(key);
  if (rate) return [Number(rate[1]), Number(rate[1]) + 60_000];
  const hour = / STAT#H(\d{4})(\d{2})(\d{2})(\d{2})$/.exec(key);
  if (hour) {
    const [, y, m, d, h] = hour.map(Number) as number[];
    const start = Date.UTC(y!, m! - 1, d!, h!);
    return [start, start + 3_600_000];
  }
  return undefined;
}

/** Stored posts within `window` (every stored post without one); at least 1. */
export function postsIn(posts: readonly Post[], window: TimeWindow | undefined): number {
  let n = 0;
  for (const post of posts) {
    if (post.stored && (!window || (post.at >= window[0] && post.at < window[1]))) n++;
  }
  return Math.max(1, n);
}

export interface KindTotal {
  kind: string;
  writes: number;
  tableUnits: number;
  indexUnits: Record<string, number>;
  callers: Map<string, number>;
}

export interface Loads {
  kinds: KindTotal[];
  /** Per partition key, on the table and on each index. */
  partitions: KeyLoad[];
  /** Per table item. */
  items: KeyLoad[];
  reads: KeyLoad[];
  bases: Record<Basis, number>;
}

/** Sums priced writes (and reads) per kind, per partition key and per item. */
export function loadsOf(priced: readonly PricedWrite[], reads: readonly ItemRead[]): Loads {
  const kinds = new Map<string, KindTotal>();
  const partitions = new Map<string, KeyLoad>();
  const items = new Map<string, KeyLoad>();
  const bases: Record<Basis, number> = {
    images: 0,
    'checked item': 0,
    'failed, assumed': 0,
    'no record, minimum': 0,
  };
  for (const { write, kind, tableUnits, indexUnits, basis } of priced) {
    bases[basis] += 1;
    let total = kinds.get(kind);
    if (!total) {
      total = { kind, writes: 0, tableUnits: 0, indexUnits: {}, callers: new Map() };
      kinds.set(kind, total);
    }
    total.writes += 1;
    total.tableUnits += tableUnits;
    total.callers.set(write.caller, (total.callers.get(write.caller) ?? 0) + 1);
    addLoad(partitions, 'table', write.pk, tableUnits, kind, write.caller);
    addLoad(items, 'table', `${write.pk} ${write.sk}`, tableUnits, kind, write.caller);
    for (const { index, partition, units } of indexUnits) {
      total.indexUnits[index] = (total.indexUnits[index] ?? 0) + units;
      addLoad(partitions, index, partition, units, kind, write.caller);
    }
  }
  const readLoads = new Map<string, KeyLoad>();
  for (const read of reads) {
    addLoad(
      readLoads,
      read.on,
      read.partition,
      read.units,
      `${read.caller} ${read.op}`,
      read.caller,
    );
  }
  return {
    kinds: [...kinds.values()],
    partitions: [...partitions.values()],
    items: [...items.values()],
    reads: [...readLoads.values()],
    bases,
  };
}

/** A key's units per stored post: over the posts of its time window, or every post. */
export function unitsPerPost(load: KeyLoad, posts: readonly Post[]): number {
  return load.units / postsIn(posts, load.window);
}

/** The `count` keys of `loads` (on one table or index) with the most units per post, most first. */
export function hottestKeys(
  loads: readonly KeyLoad[],
  posts: readonly Post[],
  on: string,
  count: number,
): { load: KeyLoad; perPost: number }[] {
  return loads
    .filter((load) => load.on === on)
    .map((load) => ({ load, perPost: unitsPerPost(load, posts) }))
    .sort((a, b) => b.perPost - a.perPost)
    .slice(0, count);
}

/** The key of `loads` (on one table or index) with the most units per post. */
export function hottest(
  loads: readonly KeyLoad[],
  posts: readonly Post[],
  on: string,
): { load: KeyLoad; perPost: number } | undefined {
  return hottestKeys(loads, posts, on, 1)[0];
}
