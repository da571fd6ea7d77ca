/**
 * Exact limits over sharded counters (docs/architecture.md#counters-and-shards).
 *
 * A limit L spread over shards gives each shard k a cap; a post may count on
 * shard k only while `count_k < cap_k`, a condition on that one item. The
 * caps always sum to L, and the shards are kept in one of two states:
 * - open: every `count_k <= cap_k` (so the total is at most L, and a shard
 *   with room means the total is below L);
 * - full: every `count_k >= cap_k` (no shard has room, whatever the total).
 * Posts only fill room, so they keep a shard set open. Owner changes that
 * move counts (deletes, spam moves) and limit changes go through the
 * functions here, which keep one of the two states. Pure: no AWS here.
 */

/** `total` split over `shards`, the first ones taking one more. */
export function shareOf(total: number, shards: number, k: number): number {
  const whole = Math.max(0, total);
  return Math.floor(whole / shards) + (k < whole % shards ? 1 : 0);
}

/** The least room a shard is given while there are more shards than room. */
export const MIN_SHARE = 8;

/**
 * Caps summing to `limit` for shards holding `counts`: room spread evenly
 * when the total is below the limit; otherwise every cap at or below its
 * count, so no shard has room.
 */
export function capsFor(limit: number, counts: readonly number[]): number[] {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total < limit) {
    // A small room goes to a few shards: posts then find it without probing
    // every shard, and a small limit never needs many writers at once.
    const slack = limit - total;
    const sharing = Math.min(counts.length, Math.max(1, Math.ceil(slack / MIN_SHARE)));
    return counts.map((count, k) => count + (k < sharing ? shareOf(slack, sharing, k) : 0));
  }
  let left = limit;
  return counts.map((count) => {
    const cap = Math.max(0, Math.min(count, left));
    left -= cap;
    return cap;
  });
}

/**
 * Where a change of `delta` in the counted total lands, per shard, so the
 * shards stay open or full: more counts fill room first and spill onto the
 * fullest shard; fewer counts come off shards over their cap first, then off
 * the fullest shard.
 */
export function spreadDelta(
  delta: number,
  counts: readonly number[],
  caps: readonly number[],
): Map<number, number> {
  const moves = new Map<number, number>();
  const add = (k: number, n: number) => {
    if (n !== 0) moves.set(k, (moves.get(k) ?? 0) + n);
  };
  let left = Math.abs(delta);
  for (let k = 0; k < counts.length && left > 0; k++) {
    const spare = delta > 0 ? caps[k]! - counts[k]! : counts[k]! - caps[k]!;
    const take = Math.min(left, Math.max(0, spare));
    add(k, delta > 0 ? take : -take);
    left -= take;
  }
  if (left > 0) add(fullest(counts), delta > 0 ? left : -left);
  return moves;
}

function fullest(counts: readonly number[]): number {
  let best = 0;
  for (let k = 1; k < counts.length; k++) if (counts[k]! > counts[best]!) best = k;
  return best;
}

/**
 * A shard for the next try: one with room if the caller knows of any (from
 * its last read), never one that just failed, otherwise any.
 */
export function pickShard(
  shards: number,
  hasRoom: (k: number) => boolean,
  avoid: ReadonlySet<number>,
  random: () => number = Math.random,
): number | undefined {
  const candidates: number[] = [];
  for (let k = 0; k < shards; k++) if (hasRoom(k) && !avoid.has(k)) candidates.push(k);
  if (candidates.length === 0) return undefined;
  return candidates[Math.floor(random() * candidates.length)];
}
