import { createPublicKey, createVerify, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseServiceAccountKey } from '#domain/google-key.ts';
import { ASSERTION_LIFETIME_SECONDS, SHEETS_SCOPE, signedAssertion } from '#net/google-token.ts';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const key = { clientEmail: 'forms@project.iam.gserviceaccount.com', privateKey: pem };
const TOKEN_URL = 'https://oauth2.googleapis.com/token';

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe('signedAssertion', () => {
  it('is an RS256 JWT for the spreadsheets scope, audience the token URL, an hour at most', () => {
    const jwt = signedAssertion(key, TOKEN_URL, 1_800_000_000);
    const [header, claims, signature] = jwt.split('.') as [string, string, string];
    expect(decode(header)).toEqual({ alg: 'RS256', typ: 'JWT' });
    expect(decode(claims)).toEqual({
      iss: key.clientEmail,
      scope: SHEETS_SCOPE,
      aud: TOKEN_URL,
      iat: 1_800_000_000,
      exp: 1_800_000_000 + ASSERTION_LIFETIME_SECONDS,
    });
    expect(ASSERTION_LIFETIME_SECONDS).toBeLessThanOrEqual(3600);
    const valid = createVerify('RSA-SHA256')
      .update(`${header}.${claims}`)
      .verify(createPublicKey(privateKey), Buffer.from(signature, 'base64url'));
    expect(valid).toBe(true);
  });

  it('signs with the key it is given: another key does not verify it', () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    const [header, claims, signature] = signedAssertion(key, TOKEN_URL, 1).split('.') as [
      string,
      string,
      string,
    ];
    const valid = createVerify('RSA-SHA256')
      .update(`${header}.${claims}`)
      .verify(other, Buffer.from(signature, 'base64url'));
    expect(valid).toBe(false);
  });
});

describe('parseServiceAccountKey', () => {
  const file = {
    type: 'service_account',
    project_id: 'p',
    private_key_id: 'abc',
    private_key: pem,
    client_email: key.clientEmail,
  };

  it('keeps the address and the private key of a key file', () => {
    expect(parseServiceAccountKey(JSON.stringify(file))).toEqual(key);
  });

  it('refuses what is not a key, without quoting it', () => {
    const attempts = [
      'not json',
      JSON.stringify({ ...file, client_email: 'nobody' }),
      JSON.stringify({ ...file, private_key: 'secret-looking-text' }),
      JSON.stringify({ ...file, padding: 'x'.repeat(20_000) }),
    ];
    for (const text of attempts) {
      expect(() => parseServiceAccountKey(text)).toThrow(/service account key/);
      try {
        parseServiceAccountKey(text);
      } catch (error) {
        expect((error as Error).message).not.toContain('secret-looking-text');
        expect((error as Error).message).not.toContain('BEGIN');
      }
    }
  });
});
