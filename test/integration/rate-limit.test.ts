import { describe, expect, it } from 'vitest';
import { newTeam } from '#test/support/admin.ts';
import { api } from '#test/support/api.ts';

const LIMIT = 300; // MANAGEMENT_RATE_PER_MINUTE default (docs/deploying.md#settings)

describe('management rate limit', () => {
  it('answers 429 rate_limited with Retry-After past 300 requests a minute for one key, and only for that key', async () => {
    // Start early in a minute so the whole burst falls in one window.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000)
      await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
    const busy = await newTeam('pro');
    const other = await newTeam('pro');
    const statuses: number[] = [];
    for (let batch = 0; batch < LIMIT / 25; batch++) {
      const results = await Promise.all(
        Array.from({ length: 25 }, () => api('GET', '/v1/forms', { key: busy.apiKey })),
      );
      statuses.push(...results.map((r) => r.status));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);

    const limited = await api('GET', '/v1/forms', { key: busy.apiKey });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ ok: false, error: 'rate_limited' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-request-id')).toBeTruthy();

    expect((await api('GET', '/v1/forms', { key: other.apiKey })).status).toBe(200);
  }, 90_000);
});
