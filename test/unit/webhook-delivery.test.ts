import { describe, expect, it } from 'vitest';
import {
  type AttemptResult,
  classifyAttempt,
  DEFAULT_RETRY_DELAYS_SECONDS,
  DELIVERY_STATUSES,
  MAX_RETRY_DELAY_SECONDS,
  nextDelaySeconds,
  retryAfterSeconds,
} from '#domain/webhook-delivery.ts';

const now = new Date('2026-11-23T12:00:00.000Z');
const mid = () => 0.5;
const low = () => 0;
const high = () => 0.999999;
const schedule = DEFAULT_RETRY_DELAYS_SECONDS;
const WINDOW = Math.floor(6755 * 1.2);

describe('classifyAttempt', () => {
  const response = (status: number): AttemptResult => ({ kind: 'response', status });
  const error = (
    kind: 'timeout' | 'network' | 'refused_address' | 'invalid_url',
  ): AttemptResult => ({
    kind: 'error',
    error: kind,
    message: 'x',
  });

  it.each([200, 201, 202, 204, 299])('%i is delivered', (status) => {
    expect(classifyAttempt(response(status))).toBe('delivered');
  });

  it.each([408, 429, 500, 502, 503, 504, 599])('%i is retried', (status) => {
    expect(classifyAttempt(response(status))).toBe('retry');
  });

  it.each([
    100, 199, 300, 301, 302, 304, 307, 308, 400, 401, 403, 404, 405, 409, 410, 413, 422, 600,
  ])('%i fails without retry', (status) => {
    expect(classifyAttempt(response(status))).toBe('fail');
  });

  it('retries timeouts and network errors; refused addresses and invalid URLs fail', () => {
    expect(classifyAttempt(error('timeout'))).toBe('retry');
    expect(classifyAttempt(error('network'))).toBe('retry');
    expect(classifyAttempt(error('refused_address'))).toBe('fail');
    expect(classifyAttempt(error('invalid_url'))).toBe('fail');
  });
});

describe('DEFAULT_RETRY_DELAYS_SECONDS and DELIVERY_STATUSES', () => {
  it('is the schedule of docs/delivery.md#retries: seven growing delays, about two hours in all', () => {
    expect(schedule).toEqual([5, 30, 120, 300, 900, 1800, 3600]);
    const total = schedule.reduce((a, b) => a + b, 0);
    expect(total).toBe(6755);
    expect(total * 1.2).toBeLessThan(2.5 * 3600);
    expect(total * 0.8).toBeGreaterThan(1.4 * 3600);
    expect(Math.max(...schedule) * 1.2).toBeLessThanOrEqual(MAX_RETRY_DELAY_SECONDS);
  });

  it('names the five statuses', () => {
    expect(DELIVERY_STATUSES).toEqual(['pending', 'delivered', 'retrying', 'failed', 'cancelled']);
  });
});

describe('nextDelaySeconds', () => {
  it('follows the schedule, attempt by attempt, without jitter at random 0.5', () => {
    const delays = schedule.map((_, i) =>
      nextDelaySeconds({ attempt: i + 1, schedule, now, random: mid }),
    );
    expect(delays).toEqual([5, 30, 120, 300, 900, 1800, 3600]);
  });

  it('never reaches past the retry window counted from the first attempt, however long Retry-After asks', () => {
    // 6,755 s of schedule × 1.2 = 8,106 s of window.
    const longWait = { now, random: mid, schedule, retryAfter: '86400' };
    expect(nextDelaySeconds({ ...longWait, attempt: 1, elapsedSeconds: 0 })).toBe(8106);
    expect(nextDelaySeconds({ ...longWait, attempt: 2, elapsedSeconds: 8000 })).toBe(106);
    expect(nextDelaySeconds({ ...longWait, attempt: 2, elapsedSeconds: 8106 })).toBeUndefined();
    expect(
      nextDelaySeconds({ attempt: 3, schedule, now, random: mid, elapsedSeconds: 9000 }),
    ).toBeUndefined();
    expect(nextDelaySeconds({ attempt: 3, schedule, now, random: mid, elapsedSeconds: 100 })).toBe(
      120,
    );
  });

  it('is undefined once the schedule is spent', () => {
    expect(nextDelaySeconds({ attempt: 8, schedule, now, random: mid })).toBeUndefined();
    expect(nextDelaySeconds({ attempt: 100, schedule, now, random: mid })).toBeUndefined();
    expect(nextDelaySeconds({ attempt: 1, schedule: [], now, random: mid })).toBeUndefined();
  });

  it('jitters by ±20 % at the extremes', () => {
    expect(nextDelaySeconds({ attempt: 7, schedule, now, random: low })).toBe(2880);
    expect(nextDelaySeconds({ attempt: 7, schedule, now, random: high })).toBe(4320);
    expect(nextDelaySeconds({ attempt: 2, schedule, now, random: low })).toBe(24);
    expect(nextDelaySeconds({ attempt: 2, schedule, now, random: high })).toBe(36);
  });

  it('stays within ±20 % and whole seconds ≥ 1 for any random draw', () => {
    for (let i = 0; i < 1000; i++) {
      const r = i / 1000;
      for (let attempt = 1; attempt <= schedule.length; attempt++) {
        const base = schedule[attempt - 1]!;
        const delay = nextDelaySeconds({ attempt, schedule, now, random: () => r })!;
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(Math.max(1, Math.floor(base * 0.8)));
        expect(delay).toBeLessThanOrEqual(Math.ceil(base * 1.2));
      }
    }
  });

  it('never answers less than 1 second', () => {
    expect(nextDelaySeconds({ attempt: 1, schedule: [0], now, random: low })).toBe(1);
    expect(nextDelaySeconds({ attempt: 1, schedule: [1], now, random: low })).toBe(1);
  });

  it('honours a longer Retry-After in seconds', () => {
    expect(nextDelaySeconds({ attempt: 1, schedule, now, random: mid, retryAfter: '60' })).toBe(60);
    expect(nextDelaySeconds({ attempt: 1, schedule, now, random: mid, retryAfter: ' 61 ' })).toBe(
      61,
    );
  });

  it('keeps the schedule when Retry-After asks for less, zero or nothing sensible', () => {
    for (const retryAfter of ['1', '0', '', '-30', '1.5', '120abc', 'soon', 'Tue', '1e3']) {
      expect(nextDelaySeconds({ attempt: 3, schedule, now, random: mid, retryAfter })).toBe(120);
    }
  });

  it('honours a Retry-After HTTP date (IMF-fixdate, RFC 850, asctime read as GMT)', () => {
    const base = { attempt: 1, schedule, now, random: mid };
    expect(nextDelaySeconds({ ...base, retryAfter: 'Mon, 23 Nov 2026 12:10:00 GMT' })).toBe(600);
    expect(nextDelaySeconds({ ...base, retryAfter: 'Monday, 23-Nov-26 12:10:00 GMT' })).toBe(600);
    expect(nextDelaySeconds({ ...base, retryAfter: 'Mon Nov 23 12:10:00 2026' })).toBe(600);
    // Part seconds round up: never earlier than asked.
    const early = new Date('2026-11-23T11:59:59.500Z');
    expect(
      nextDelaySeconds({ ...base, now: early, retryAfter: 'Mon, 23 Nov 2026 12:10:00 GMT' }),
    ).toBe(601);
  });

  it('ignores a Retry-After date in the past', () => {
    expect(
      nextDelaySeconds({
        attempt: 4,
        schedule,
        now,
        random: mid,
        retryAfter: 'Sun, 22 Nov 2026 12:00:00 GMT',
      }),
    ).toBe(300);
  });

  it('caps a Retry-After at the whole retry window (schedule sum × 1.2)', () => {
    expect(WINDOW).toBe(8106);
    const base = { attempt: 1, schedule, now, random: mid };
    expect(nextDelaySeconds({ ...base, retryAfter: '8106' })).toBe(8106);
    expect(nextDelaySeconds({ ...base, retryAfter: '8107' })).toBe(WINDOW);
    expect(nextDelaySeconds({ ...base, retryAfter: '86400' })).toBe(WINDOW);
    expect(nextDelaySeconds({ ...base, retryAfter: '99999999999999999999999' })).toBe(WINDOW);
    expect(nextDelaySeconds({ ...base, retryAfter: 'Fri, 01 Jan 2100 00:00:00 GMT' })).toBe(WINDOW);
  });

  it('caps at 12 hours (the SQS visibility limit) whatever the schedule', () => {
    const long = [20_000, 40_000];
    expect(nextDelaySeconds({ attempt: 2, schedule: long, now, random: high })).toBe(43_200);
    expect(
      nextDelaySeconds({ attempt: 1, schedule: long, now, random: mid, retryAfter: '50000' }),
    ).toBe(43_200);
  });

  it('works with a custom short schedule', () => {
    const quick = [1, 2];
    expect(nextDelaySeconds({ attempt: 1, schedule: quick, now, random: mid })).toBe(1);
    expect(nextDelaySeconds({ attempt: 2, schedule: quick, now, random: mid })).toBe(2);
    expect(nextDelaySeconds({ attempt: 3, schedule: quick, now, random: mid })).toBeUndefined();
    // Window 3 × 1.2 = 3.6 → 3 whole seconds.
    expect(
      nextDelaySeconds({ attempt: 1, schedule: quick, now, random: mid, retryAfter: '60' }),
    ).toBe(3);
  });

  it('refuses an attempt count below 1 or not whole', () => {
    expect(() => nextDelaySeconds({ attempt: 0, schedule, now, random: mid })).toThrow(RangeError);
    expect(() => nextDelaySeconds({ attempt: 1.5, schedule, now, random: mid })).toThrow(
      RangeError,
    );
  });
});

describe('retryAfterSeconds', () => {
  it('reads delay-seconds and HTTP dates, undefined otherwise', () => {
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds('Mon, 23 Nov 2026 12:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('0', now)).toBeUndefined();
    expect(retryAfterSeconds('Mon, 23 Nov 2026 12:00:00 GMT', now)).toBeUndefined();
    expect(retryAfterSeconds('2026-11-23T12:10:00Z', now)).toBeUndefined();
    expect(retryAfterSeconds('Mon, 99 Foo 2026 GMT', now)).toBeUndefined();
  });
});
