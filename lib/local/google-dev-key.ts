import { generateKeyPair } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseServiceAccountKey } from '#domain/google-key.ts';

/** The local stack's service account (docs/integrations.md#local-emulator): share a local spreadsheet with it. */
export const DEV_SERVICE_ACCOUNT = 'form-service@local-development.iam.gserviceaccount.com';

export interface DevGoogleKey {
  /** The key file, in Google's format: what `GOOGLE_SERVICE_ACCOUNT_KEY_FILE` names. */
  file: string;
  clientEmail: string;
  privateKey: string;
}

/**
 * The local stack's Google service account key (a deployment's is made in
 * Google Cloud, docs/integrations.md#google-cloud-setup): an RSA key made on
 * first start and kept in the state directory (git-ignored `.local/`, mode
 * 600), in the format of a downloaded key file, so the handlers read it as
 * they would a real one and the emulator checks its signatures. Kept for an
 * in-memory stack too: it holds no data, and making one costs a moment.
 */
export async function localGoogleKey(stateDir: string): Promise<DevGoogleKey> {
  const file = join(stateDir, 'google-service-account.json');
  const kept = await readFile(file, 'utf8').catch(() => undefined);
  if (kept !== undefined) {
    try {
      const key = parseServiceAccountKey(kept);
      if (key.clientEmail === DEV_SERVICE_ACCOUNT) return { file, ...key };
    } catch {
      // Not a key (a partial write): made again below.
    }
  }
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const json = {
    type: 'service_account',
    project_id: 'local-development',
    private_key_id: 'local',
    private_key: pem,
    client_email: DEV_SERVICE_ACCOUNT,
    client_id: '0',
    token_uri: 'http://127.0.0.1/token',
  };
  await writeFile(file, `${JSON.stringify(json, null, 2)}\n`, { mode: 0o600 });
  return { file, clientEmail: DEV_SERVICE_ACCOUNT, privateKey: pem };
}
