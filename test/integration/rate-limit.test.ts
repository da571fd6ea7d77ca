import { describe, expect, it } from 'vitest';
import { newTeam } from '#test/support/admin.ts';
import { api } from '#test/support/api.ts';
import { inOneMinute } from '#test/support/submit.ts';

const LIMIT = 300; // MANAGEMENT_RATE_PER_MINUTE default (docs/deploying.md#settings)

describe('management rate limit', () => {
  it('answers 429 rate_limited with Retry-After past 300 requests a minute for one key, and only for that key', async () => {
    const other = await newTeam('pro');
    // The whole burst in one fixed one-minute window.
    const { statuses, limited } = await inOneMinute(async () => {
      const busy = await newTeam('pro');
      const statuses: number[] = [];
      for (let batch = 0; batch < LIMIT / 25; batch++) {
        const results = await Promise.all(
          Array.from({ length: 25 }, () => api('GET', '/v1/forms', { key: busy.apiKey })),
        );
        statuses.push(...results.map((r) => r.status));
      }
      return { statuses, limited: await api('GET', '/v1/forms', { key: busy.apiKey }) };
    });
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);

    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ ok: false, error: 'rate_limited' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-request-id')).toBeTruthy();

    expect((await api('GET', '/v1/forms', { key: other.apiKey })).status).toBe(200);
  }, 90_000);
});
