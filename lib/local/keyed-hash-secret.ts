import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The local stack's keyed-hash secret (the stack's is generated in Secrets
 * Manager, lib/constructs/keyed-hash-secret.ts): the runner's own
 * `KEYED_HASH_SECRET` when set, else one made at random and kept in the state
 * directory so a persisted stack's hashes stay the same across restarts; an
 * in-memory stack makes a new one each start (it keeps no hash either).
 */
export async function localKeyedHashSecret(stateDir: string, inMemory: boolean): Promise<string> {
  const given = process.env.KEYED_HASH_SECRET;
  if (given) return given;
  const fresh = randomBytes(32).toString('hex');
  if (inMemory) return fresh;
  const file = join(stateDir, 'keyed-hash-secret');
  const kept = await readFile(file, 'utf8').catch(() => '');
  if (kept.trim().length >= 32) return kept.trim();
  await writeFile(file, fresh, { mode: 0o600 });
  return fresh;
}
