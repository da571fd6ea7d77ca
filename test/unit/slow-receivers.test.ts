import { describe, expect, it } from 'vitest';
import {
  HOLD_TIMEOUTS,
  holdUntil,
  isSlowAttempt,
  MAX_PUT_BACK_SECONDS,
  putBackSeconds,
  turnUntil,
} from '#domain/slow-receivers.ts';

const now = new Date('2026-11-28T10:00:00.000Z');
const timeoutMs = 10_000;

describe('a slow receiver (docs/delivery.md#a-slow-receiver)', () => {
  it('is one that timed out or took half the timeout; a quick answer or a refused connection is not', () => {
    expect(isSlowAttempt({ kind: 'error', error: 'timeout' }, 10_001, timeoutMs)).toBe(true);
    expect(isSlowAttempt({ kind: 'response' }, 5_000, timeoutMs)).toBe(true);
    expect(isSlowAttempt({ kind: 'response' }, 4_999, timeoutMs)).toBe(false);
    expect(isSlowAttempt({ kind: 'error', error: 'network' }, 20, timeoutMs)).toBe(false);
    expect(isSlowAttempt({ kind: 'error', error: 'address_refused' }, 3, timeoutMs)).toBe(false);
  });

  it('is held one timeout; a turn lasts one timeout and a margin', () => {
    expect(HOLD_TIMEOUTS).toBe(1);
    expect(holdUntil(now, timeoutMs)).toBe('2026-11-28T10:00:10.000Z');
    expect(turnUntil(now, timeoutMs)).toBe('2026-11-28T10:00:15.000Z');
  });

  it('puts a message back to the hold’s end plus up to half a timeout, at least 1 s, at most SQS’s 15 minutes', () => {
    const hold = '2026-11-28T10:00:30.000Z';
    expect(putBackSeconds(hold, now, timeoutMs, () => 0)).toBe(30);
    expect(putBackSeconds(hold, now, timeoutMs, () => 0.999)).toBe(35);
    expect(putBackSeconds('2026-11-28T09:59:00.000Z', now, timeoutMs, () => 0)).toBe(1);
    expect(putBackSeconds('2026-11-28T12:00:00.000Z', now, timeoutMs, () => 0)).toBe(
      MAX_PUT_BACK_SECONDS,
    );
  });
});
