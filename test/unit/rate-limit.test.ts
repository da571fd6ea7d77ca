import { describe, expect, it } from 'vitest';
import { retryAfterSeconds, windowAt } from '../../lambdas/domain/rate-limit.ts';

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
