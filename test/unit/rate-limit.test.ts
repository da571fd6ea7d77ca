import { describe, expect, it } from 'vitest';
import { shareOf } from '#domain/counter-shares.ts';
import {
  MAX_RATE_SHARDS,
  probeOrder,
  rateShards,
  retryAfterSeconds,
  WRITES_PER_SHARD_PER_SECOND,
  windowAt,
} from '#domain/rate-limit.ts';

describe('fixed rate windows', () => {
  it('puts every instant of a minute in the same window and the next minute in the next', () => {
    const start = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(windowAt(start, 60)).toEqual({ start, end: start + 60_000 });
    expect(windowAt(start + 59_999, 60).start).toBe(start);
    expect(windowAt(start + 60_000, 60).start).toBe(start + 60_000);
  });

  it('tells the seconds left in the window, rounded up and never 0', () => {
    const start = Date.UTC(2026, 0, 1, 12, 0, 0);
    const window = windowAt(start, 60);
    expect(retryAfterSeconds(window, start)).toBe(60);
    expect(retryAfterSeconds(window, start + 58_500)).toBe(2);
    expect(retryAfterSeconds(window, start + 59_999)).toBe(1);
    expect(retryAfterSeconds(window, start + 60_000)).toBe(1);
  });
});

describe('rate window shards', () => {
  it('keeps every default window on one item', () => {
    expect(rateShards(600, 60)).toBe(1); // submit, per form
    expect(rateShards(30, 60)).toBe(1); // submit, per visitor
    expect(rateShards(300, 60)).toBe(1); // management, per key
  });

  it('spreads a window whose limit would heat one item, so no shard takes more than its pace', () => {
    for (const limit of [15_001, 60_000, 100_000, 239_000]) {
      const shards = rateShards(limit, 60);
      expect(shards).toBeGreaterThan(1);
      expect(
        Math.max(...Array.from({ length: shards }, (_, k) => shareOf(limit, shards, k))) / 60,
      ).toBeLessThanOrEqual(WRITES_PER_SHARD_PER_SECOND + 1);
    }
    expect(rateShards(60_000, 60)).toBe(4);
  });

  it('stops at MAX_RATE_SHARDS for limits that are no limit at all', () => {
    expect(rateShards(100_000_000, 60)).toBe(MAX_RATE_SHARDS);
  });

  it('tries every shard once, from a random one', () => {
    expect(probeOrder(4, () => 0)).toEqual([0, 1, 2, 3]);
    expect(probeOrder(4, () => 0.99)).toEqual([3, 0, 1, 2]);
    expect(probeOrder(1, () => 0.5)).toEqual([0]);
    for (let i = 0; i < 50; i++) {
      expect([...probeOrder(16)].sort((a, b) => a - b)).toEqual(
        Array.from({ length: 16 }, (_, k) => k),
      );
    }
  });
});
