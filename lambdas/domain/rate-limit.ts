/**
 * Fixed-window rate limits: a window is one counter item (or, for a limit
 * high enough to heat one item, a few shards: `rateShards`), so a check is
 * one atomic ADD. A burst can straddle a boundary (up to twice the limit
 * over two adjacent windows); for per-minute limits that is accepted in
 * exchange for one write per request and no clock coordination.
 */
export interface RateWindow {
  /** Start of the window, epoch ms; part of the counter's key. */
  start: number;
  /** When the window ends, epoch ms. */
  end: number;
}

export function windowAt(now: number, windowSeconds: number): RateWindow {
  const size = windowSeconds * 1000;
  const start = Math.floor(now / size) * size;
  return { start, end: start + size };
}

/** Whole seconds until the window ends, at least 1: the `Retry-After` value. */
export function retryAfterSeconds(window: RateWindow, now: number): number {
  return Math.max(1, Math.ceil((window.end - now) / 1000));
}

/**
 * DynamoDB takes about 1,000 writes a second on one item. A window whose
 * limit lets more than `WRITES_PER_SHARD_PER_SECOND` requests a second
 * through is spread over shards (at most `MAX_RATE_SHARDS`), each admitting
 * its share of the limit; at the default limits every window is one item.
 */
export const WRITES_PER_SHARD_PER_SECOND = 250;
export const MAX_RATE_SHARDS = 16;

/** How many counter items one window of `limit` requests in `windowSeconds` is spread over. */
export function rateShards(limit: number, windowSeconds: number): number {
  const perSecond = limit / windowSeconds;
  return Math.min(MAX_RATE_SHARDS, Math.max(1, Math.ceil(perSecond / WRITES_PER_SHARD_PER_SECOND)));
}

/**
 * The order in which a request tries the shards of a window: every shard
 * once, from a random one. A shard whose share is used up stays so for the
 * window, so a request refused by all of them is refused exactly when the
 * window's limit is used up.
 */
export function probeOrder(shards: number, random: () => number = Math.random): number[] {
  const first = Math.floor(random() * shards);
  return Array.from({ length: shards }, (_, i) => (first + i) % shards);
}
