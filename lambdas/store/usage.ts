import { MIN_SHARE, shareOf } from '#domain/counter-shares.ts';
import { USAGE_COUNTER_SHARDS, usageKey, usagePrefix } from './keys.ts';
import { itemsWithPrefix } from './table.ts';

/** A team's monthly usage as its shards hold it. */
export interface UsageCounts {
  /** Posts on each shard that takes posts below the near-limit threshold. */
  quiet: number[];
  /** Posts at or past the threshold. */
  near: number;
  total: number;
}

/** Reads every shard of the month's usage in one Query. */
export async function readUsage(
  teamId: string,
  month: string,
  options: { consistent?: boolean } = {},
): Promise<UsageCounts> {
  const items = await itemsWithPrefix(usageKey(teamId, month, 0).pk, usagePrefix(month), options);
  const counts = new Map(items.map((item) => [item.sk as string, Number(item.submissions ?? 0)]));
  const quiet = Array.from(
    { length: USAGE_COUNTER_SHARDS },
    (_, k) => counts.get(usageKey(teamId, month, k).sk) ?? 0,
  );
  const near = counts.get(usageKey(teamId, month, 'near').sk) ?? 0;
  // Shards past the current count (none today) still count.
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  return { quiet, near, total };
}

/** Submissions counted for the team in `month` (`yyyy-mm`, UTC); deleted ones stay counted. */
export async function monthlyUsage(teamId: string, month: string): Promise<number> {
  return (await readUsage(teamId, month)).total;
}

/**
 * How an allowance splits over the usage shards: the posts before the
 * near-limit threshold spread over the quiet shards, the rest on the near
 * one. A post counted on the near shard is exactly a post at or past the
 * threshold, so `near_limit` needs no total.
 */
export function usageCaps(allowance: number, nearLimitFrom: number) {
  const quietTotal = Math.min(Math.max(0, nearLimitFrom - 1), Math.max(0, allowance));
  // As with a form's caps: a small allowance on a few shards, found without probing them all.
  const sharing = Math.min(USAGE_COUNTER_SHARDS, Math.max(1, Math.ceil(quietTotal / MIN_SHARE)));
  return {
    quiet: (k: number) => (k < sharing ? shareOf(quietTotal, sharing, k) : 0),
    near: Math.max(0, allowance - quietTotal),
  };
}
