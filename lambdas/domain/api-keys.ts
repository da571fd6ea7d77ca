import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API keys look like `fsk_<keyId>_<secret>`. The key id is public (safe to
 * log, used to revoke) and addresses the stored record directly; only the
 * SHA-256 of the whole key is stored, so a leaked table never leaks keys.
 */
const KEY_FORMAT = /^fsk_([a-z0-9]{16})_([A-Za-z0-9_-]{43})$/;

export interface IssuedApiKey {
  keyId: string;
  apiKey: string;
  hash: string;
}

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

export function issueApiKey(): IssuedApiKey {
  const keyId = randomBytes(10).toString('hex').slice(0, 16);
  const secret = randomBytes(32).toString('base64url');
  const apiKey = `fsk_${keyId}_${secret}`;
  return { keyId, apiKey, hash: hashApiKey(apiKey) };
}

/** The key id of a well-formed key, or undefined for anything else. */
export function keyIdOf(apiKey: string): string | undefined {
  return KEY_FORMAT.exec(apiKey)?.[1];
}

export function hashMatches(apiKey: string, storedHash: string): boolean {
  const given = Buffer.from(hashApiKey(apiKey), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** What logs may show of a bearer value: never more than the public key id. */
export function redactApiKey(apiKey: string): string {
  const keyId = keyIdOf(apiKey);
  return keyId ? `fsk_${keyId}_…` : '(malformed)';
}
