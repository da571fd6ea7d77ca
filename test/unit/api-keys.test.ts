import { describe, expect, it } from 'vitest';
import { hashApiKey, hashMatches, issueApiKey, keyIdOf, redactApiKey } from '#domain/api-keys.ts';

describe('API keys', () => {
  it('issues keys whose id is readable from the key and whose hash alone is stored', () => {
    const issued = issueApiKey();
    expect(issued.apiKey).toMatch(/^fsk_[a-z0-9]{16}_[A-Za-z0-9_-]{43}$/);
    expect(keyIdOf(issued.apiKey)).toBe(issued.keyId);
    expect(issued.hash).toBe(hashApiKey(issued.apiKey));
    expect(issued.hash).not.toContain(issued.apiKey.slice(21));
    expect(issueApiKey().apiKey).not.toBe(issued.apiKey);
  });

  it('matches the hash of the same key only', () => {
    const issued = issueApiKey();
    expect(hashMatches(issued.apiKey, issued.hash)).toBe(true);
    expect(hashMatches(`${issued.apiKey.slice(0, -1)}x`, issued.hash)).toBe(false);
    expect(hashMatches(issued.apiKey, 'abcd')).toBe(false);
  });

  it.each([
    '',
    'fsk_',
    'Bearer x',
    `fsk_0123456789ABCDEF_${'a'.repeat(43)}`,
    `fsk_0123456789abcdef_${'a'.repeat(42)}`,
  ])('rejects the malformed key %j', (value) => {
    expect(keyIdOf(value)).toBeUndefined();
  });

  it('redacts a key to its public id for logs', () => {
    const issued = issueApiKey();
    expect(redactApiKey(issued.apiKey)).toBe(`fsk_${issued.keyId}_…`);
    expect(redactApiKey('garbage')).toBe('(malformed)');
  });
});
