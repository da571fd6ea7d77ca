import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_WINDOW, retryWindowWords } from '#domain/retry-window.ts';
import { DEFAULT_RETRY_DELAYS_SECONDS } from '#domain/webhook-delivery.ts';
import { SETTINGS } from '#settings';

describe('the retry window in words', () => {
  it('of the default schedule is what docs/delivery.md and api-basics.md say: about two hours', () => {
    expect(DEFAULT_RETRY_WINDOW).toBe('about two hours');
    for (const doc of ['delivery.md', 'api-basics.md']) {
      const text = readFileSync(new URL(`../../docs/${doc}`, import.meta.url), 'utf8');
      expect(text, doc).toContain('about two hours');
    }
  });

  it('is the schedule the worker runs by default (the setting’s default is the same list)', () => {
    expect(SETTINGS.webhookRetryDelaysSeconds.default).toBe(DEFAULT_RETRY_DELAYS_SECONDS);
  });

  it('follows the schedule it is given, as a deployment may set its own', () => {
    expect(retryWindowWords([1, 2, 3])).toBe('a few seconds');
    expect(retryWindowWords([10, 27])).toBe('about 40 seconds');
    expect(retryWindowWords([30, 30])).toBe('about a minute');
    expect(retryWindowWords([60, 600])).toBe('about eleven minutes');
    expect(retryWindowWords([60, 1200])).toBe('about 21 minutes');
    expect(retryWindowWords([3600])).toBe('about an hour');
    expect(retryWindowWords([3600, 3600, 3600])).toBe('about three hours');
    expect(retryWindowWords([86_400])).toBe('about a day');
    expect(retryWindowWords([86_400, 86_400, 86_400])).toBe('about three days');
  });
});
