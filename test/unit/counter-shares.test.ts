import { describe, expect, it } from 'vitest';
import { capsFor, MIN_SHARE, pickShard, shareOf, spreadDelta } from '#domain/counter-shares.ts';
import { random as seeded } from '#test/support/seeded-random.ts';

const seededRandom = (seed: number) => seeded(seed).next;

const SHARDS = 32;
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** Open: every count within its cap. Full: no shard with room. */
function stateOf(counts: readonly number[], caps: readonly number[]): 'open' | 'full' | 'broken' {
  if (counts.every((count, k) => count <= caps[k]!)) return 'open';
  if (counts.every((count, k) => count >= caps[k]!)) return 'full';
  return 'broken';
}

describe('shareOf', () => {
  it('splits a total over shards, the first taking one more, never below zero', () => {
    for (const total of [0, 1, 7, 31, 32, 33, 1000]) {
      const shares = Array.from({ length: SHARDS }, (_, k) => shareOf(total, SHARDS, k));
      expect(sum(shares)).toBe(total);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    }
    expect(shareOf(-5, 4, 0)).toBe(0);
  });
});

describe('capsFor', () => {
  it('sums to the limit and leaves the shards open below it, full at or above it', () => {
    const random = seededRandom(7);
    for (let round = 0; round < 500; round++) {
      const counts = Array.from({ length: SHARDS }, () => Math.floor(random() * 6));
      const limit = Math.floor(random() * 200);
      const caps = capsFor(limit, counts);
      expect(sum(caps)).toBe(limit);
      const total = sum(counts);
      if (total < limit) expect(counts.every((count, k) => count <= caps[k]!)).toBe(true);
      else expect(counts.every((count, k) => count >= caps[k]!)).toBe(true);
      // Room exists exactly when the total is below the limit.
      expect(counts.some((count, k) => count < caps[k]!)).toBe(total < limit);
    }
  });

  it('gives a small room to a few shards, so posts find it without probing all', () => {
    const caps = capsFor(50, new Array(SHARDS).fill(0));
    const sharing = caps.filter((cap) => cap > 0).length;
    expect(sharing).toBe(Math.ceil(50 / MIN_SHARE));
    expect(capsFor(10_000, new Array(SHARDS).fill(0)).every((cap) => cap > 0)).toBe(true);
  });
});

describe('spreadDelta', () => {
  it('keeps open shards open and full shards full, moving exactly the delta', () => {
    const random = seededRandom(11);
    for (let round = 0; round < 2000; round++) {
      const counts = Array.from({ length: SHARDS }, () => Math.floor(random() * 5));
      const limit = Math.floor(random() * 150);
      const caps = capsFor(limit, counts);
      const delta = Math.floor(random() * 41) - 20;
      const moves = spreadDelta(delta, counts, caps);
      const after = counts.map((count, k) => count + (moves.get(k) ?? 0));
      expect(sum(after) - sum(counts)).toBe(delta);
      const state = stateOf(after, caps);
      expect(state).not.toBe('broken');
      // Room after the change exactly when the new total is below the limit.
      expect(after.some((count, k) => count < caps[k]!)).toBe(sum(after) < limit);
    }
  });
});

describe('a limit over shards, simulated', () => {
  it('accepts a post exactly while the total is below the limit, through deletes, un-spams and limit changes', () => {
    const random = seededRandom(23);
    let counts = new Array(SHARDS).fill(0) as number[];
    let limit = 40;
    let caps = capsFor(limit, counts);
    let accepted = 0;
    let refused = 0;
    for (let step = 0; step < 20_000; step++) {
      const roll = random();
      if (roll < 0.8) {
        // A post: tries shards with room (as the store does after a consistent read).
        const total = sum(counts);
        const k = pickShard(SHARDS, (i) => counts[i]! < caps[i]!, new Set(), random);
        if (k === undefined) {
          expect(total).toBeGreaterThanOrEqual(limit);
          refused++;
        } else {
          expect(total).toBeLessThan(limit);
          counts[k]! += 1;
          accepted++;
        }
      } else if (roll < 0.9) {
        const delta = -Math.floor(random() * Math.min(5, sum(counts) + 1));
        const moves = spreadDelta(delta, counts, caps);
        counts = counts.map((count, k) => count + (moves.get(k) ?? 0));
      } else if (roll < 0.97) {
        const moves = spreadDelta(Math.floor(random() * 4), counts, caps);
        counts = counts.map((count, k) => count + (moves.get(k) ?? 0));
      } else {
        limit = Math.floor(random() * 80);
        caps = capsFor(limit, counts);
      }
      expect(stateOf(counts, caps)).not.toBe('broken');
    }
    expect(accepted).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
  });
});

describe('pickShard', () => {
  it('picks only shards with room that are not avoided, or none', () => {
    const random = seededRandom(3);
    const room = new Set([2, 5, 9]);
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const k = pickShard(12, (shard) => room.has(shard), new Set([5]), random);
      expect(k === 2 || k === 9).toBe(true);
      seen.add(k as number);
    }
    expect(seen).toEqual(new Set([2, 9]));
    expect(pickShard(12, () => false, new Set(), random)).toBeUndefined();
  });
});
