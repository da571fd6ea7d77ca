import { capsFor, spreadDelta } from '#domain/counter-shares.ts';
import type { FormRecord } from '#domain/form-model.ts';
import { type CounterDeltas, FOLDERS, type FolderSizes } from '#domain/submission-folders.ts';
import {
  counterShardOf,
  FORM_COUNTER_PREFIX,
  FORM_COUNTER_SHARDS,
  folderCounter,
  formCounterKey,
  formKey,
} from './keys.ts';
import { itemsWithPrefix, type TableTransactItem } from './table.ts';

/**
 * A form's counters live on FORM_COUNTER_SHARDS small items beside the form
 * item, never on it: a post writes one shard, so it neither rewrites the
 * form's settings nor meets every other post on one item. Each shard also
 * carries a copy of the form's gate (open or not, the close date, its share
 * of `maxSubmissions`), written in the same transaction as the form, so a
 * post's whole check is a condition on the one shard it writes.
 */

export interface CounterShard {
  shard: number;
  folders: FolderSizes;
  /** Submissions on this shard that count toward `submissionCount`. */
  counted: number;
  /** This shard's share of `maxSubmissions`; absent when the form has none. */
  cap?: number;
  open: boolean;
  closesAt?: string;
}

export interface FormCounters {
  /** The shards that exist, by number. */
  shards: Map<number, CounterShard>;
  folders: FolderSizes;
  counted: number;
}

export const COUNTED = 'counted';

export function counterShard(item: Record<string, unknown>): CounterShard {
  const folders = Object.fromEntries(
    FOLDERS.map((folder) => [folder, Number(item[folderCounter(folder)] ?? 0)]),
  ) as FolderSizes;
  return {
    shard: counterShardOf(item.sk as string),
    folders,
    counted: Number(item[COUNTED] ?? 0),
    cap: item.cap === undefined ? undefined : Number(item.cap),
    open: item.open === true,
    closesAt: typeof item.closesAt === 'string' ? item.closesAt : undefined,
  };
}

/** The sums a reader sees; a folder never shows below zero. */
export function sumCounters(items: readonly Record<string, unknown>[]): FormCounters {
  const shards = new Map<number, CounterShard>();
  const folders = { all: 0, unread: 0, starred: 0, spam: 0, pending: 0 } as FolderSizes;
  let counted = 0;
  for (const item of items) {
    if (!(item.sk as string).startsWith(FORM_COUNTER_PREFIX)) continue;
    const shard = counterShard(item);
    shards.set(shard.shard, shard);
    for (const folder of FOLDERS) folders[folder] += shard.folders[folder];
    counted += shard.counted;
  }
  for (const folder of FOLDERS) folders[folder] = Math.max(0, folders[folder]);
  return { shards, folders, counted: Math.max(0, counted) };
}

export async function readCounters(
  formId: string,
  options: { consistent?: boolean } = {},
): Promise<FormCounters> {
  return sumCounters(await itemsWithPrefix(formKey(formId).pk, FORM_COUNTER_PREFIX, options));
}

/** What of a form decides whether a post may land: the part copied onto every shard. */
export interface FormGate {
  open: boolean;
  closesAt: string | null;
  limit: number | null;
}

export function gateOf(
  form: Pick<FormRecord, 'status' | 'closedReason' | 'autoCloseAt' | 'maxSubmissions'>,
): FormGate {
  return {
    open: form.status === 'active' && !form.closedReason,
    closesAt: form.autoCloseAt,
    limit: form.maxSubmissions,
  };
}

export function sameGate(a: FormGate, b: FormGate): boolean {
  return a.open === b.open && a.closesAt === b.closesAt && a.limit === b.limit;
}

/**
 * Writes `gate` on every shard (creating missing ones), to commit in the same
 * transaction as the form change it copies. An open gate with a limit spreads
 * the limit as caps over the counts read (`counters`, read consistently by
 * the caller), on the condition that those counts have not moved; a closed
 * one leaves the caps alone (nothing lands while closed; reopening spreads
 * them again).
 */
export function gateWrites(
  formId: string,
  gate: FormGate,
  counters: FormCounters,
): TableTransactItem[] {
  const counts = Array.from(
    { length: FORM_COUNTER_SHARDS },
    (_, k) => counters.shards.get(k)?.counted ?? 0,
  );
  const spread = gate.open && gate.limit !== null;
  const caps = spread ? capsFor(gate.limit as number, counts) : [];
  return counts.map((count, k) => {
    // `counted` exists from the start: a post's `counted < cap` is false on a missing attribute.
    const sets = ['entity = :entity', '#open = :open', '#counted = if_not_exists(#counted, :zero)'];
    const removes: string[] = [];
    const values: Record<string, unknown> = {
      ':entity': 'formCounter',
      ':open': gate.open,
      ':zero': 0,
    };
    if (gate.closesAt === null) removes.push('closesAt');
    else {
      sets.push('closesAt = :closesAt');
      values[':closesAt'] = gate.closesAt;
    }
    if (gate.limit === null) removes.push('cap');
    else if (spread) {
      sets.push('cap = :cap');
      values[':cap'] = caps[k];
    }
    let condition: string | undefined;
    if (spread) {
      condition =
        count === 0 ? 'attribute_not_exists(#counted) OR #counted = :count' : '#counted = :count';
      values[':count'] = count;
    }
    return {
      Update: {
        Key: formCounterKey(formId, k),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#open': 'open', '#counted': COUNTED },
        ExpressionAttributeValues: values,
      },
    };
  });
}

/** Removes every shard, with the form in the same transaction. */
export function shardDeletes(formId: string): TableTransactItem[] {
  return Array.from({ length: FORM_COUNTER_SHARDS }, (_, k) => ({
    Delete: { Key: formCounterKey(formId, k) },
  }));
}

/**
 * The counter writes of an owner change that moves `deltas`, for the same
 * transaction as the submissions it changes. Folder sizes may land on any
 * shard (only their sums are read); a change of counted submissions on a
 * form with `maxSubmissions` is spread by `spreadDelta` over the shards as
 * read now, on the condition that they have not moved, so the caps stay
 * exact. Every write requires its shard to exist: the form still does.
 */
export async function counterChanges(
  formId: string,
  deltas: CounterDeltas,
): Promise<TableTransactItem[]> {
  const folderMoves = FOLDERS.map(
    (folder) => [folderCounter(folder), deltas.folders[folder]] as const,
  ).filter(([, delta]) => delta !== 0);
  const anyShard = Math.floor(Math.random() * FORM_COUNTER_SHARDS);
  if (deltas.submissionCount === 0) {
    return [shardChange(formId, anyShard, folderMoves, 0)];
  }
  const counters = await readCounters(formId, { consistent: true });
  const capped = [...counters.shards.values()].some((shard) => shard.cap !== undefined);
  if (!capped) {
    return [shardChange(formId, anyShard, folderMoves, deltas.submissionCount, { uncapped: true })];
  }
  const counts = Array.from(
    { length: FORM_COUNTER_SHARDS },
    (_, k) => counters.shards.get(k)?.counted ?? 0,
  );
  const caps = counts.map((_, k) => counters.shards.get(k)?.cap ?? 0);
  const moves = [...spreadDelta(deltas.submissionCount, counts, caps)];
  return moves.map(([k, delta], i) =>
    shardChange(formId, k, i === 0 ? folderMoves : [], delta, {
      seen: { counted: counts[k]!, cap: caps[k]! },
    }),
  );
}

function shardChange(
  formId: string,
  shard: number,
  folderMoves: readonly (readonly [string, number])[],
  counted: number,
  guard: { uncapped?: boolean; seen?: { counted: number; cap: number } } = {},
): TableTransactItem {
  const moves = [...folderMoves];
  if (counted !== 0) moves.push([COUNTED, counted]);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds = moves.map(([name, delta], i) => {
    names[`#c${i}`] = name;
    values[`:d${i}`] = delta;
    return `#c${i} :d${i}`;
  });
  const conditions = ['attribute_exists(pk)'];
  if (guard.uncapped) conditions.push('attribute_not_exists(cap)');
  if (guard.seen) {
    names['#counted'] = COUNTED;
    conditions.push(
      guard.seen.counted === 0
        ? '(attribute_not_exists(#counted) OR #counted = :seen)'
        : '#counted = :seen',
      'cap = :cap',
    );
    Object.assign(values, { ':seen': guard.seen.counted, ':cap': guard.seen.cap });
  }
  // The shard as it was comes back with a failure: none means it is missing.
  if (adds.length === 0) {
    return {
      ConditionCheck: {
        Key: formCounterKey(formId, shard),
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
        ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    };
  }
  return {
    Update: {
      Key: formCounterKey(formId, shard),
      UpdateExpression: `ADD ${adds.join(', ')}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}
