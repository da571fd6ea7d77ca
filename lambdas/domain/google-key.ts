/**
 * A Google service account's JSON key (docs/integrations.md#google-cloud-setup),
 * checked once when read: only the two members a token needs are kept.
 */

export interface ServiceAccountKey {
  /** The account's address: what an owner shares a spreadsheet with, and the JWT's `iss`. */
  clientEmail: string;
  /** PKCS #8 PEM, as Google writes it in the key file. */
  privateKey: string;
}

/** A key file is about 2.3 KB; anything far larger is not one. */
export const MAX_KEY_FILE_BYTES = 16 * 1024;

const CLIENT_EMAIL = /^[^\s@]{1,64}@[a-z0-9.-]{1,253}\.[a-z]{2,}$/i;
const PRIVATE_KEY =
  /^-----BEGIN (?:RSA )?PRIVATE KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END (?:RSA )?PRIVATE KEY-----\r?\n?$/;

/** The key from the file's text; throws a reason that never quotes the key. */
export function parseServiceAccountKey(text: string): ServiceAccountKey {
  if (text.length > MAX_KEY_FILE_BYTES) {
    throw new Error(`is larger than ${MAX_KEY_FILE_BYTES} bytes: not a service account key`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('is not JSON: expected a service account key file');
  }
  const { client_email: clientEmail, private_key: privateKey } = (parsed ?? {}) as Record<
    string,
    unknown
  >;
  if (typeof clientEmail !== 'string' || !CLIENT_EMAIL.test(clientEmail)) {
    throw new Error('has no client_email address: expected a service account key file');
  }
  if (typeof privateKey !== 'string' || !PRIVATE_KEY.test(`${privateKey.trim()}\n`)) {
    throw new Error('has no PEM private_key: expected a service account key file');
  }
  return { clientEmail, privateKey };
}
