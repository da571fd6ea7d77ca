import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '#config';
import { googleFromEnvironment, localEnvironment } from '#lib/local/environment.ts';

const saved = { ...process.env };
afterEach(() => {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
});

const dir = mkdtempSync(join(tmpdir(), 'google-settings-'));
const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

describe('Google settings', () => {
  it('default to Google’s own endpoints and no key', () => {
    delete process.env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE;
    delete process.env.GOOGLE_OAUTH_TOKEN_URL;
    delete process.env.GOOGLE_SHEETS_API_URL;
    expect(config.googleServiceAccount).toBeUndefined();
    expect(config.googleServiceAccountEmail).toBeUndefined();
    expect(config.googleOauthTokenUrl).toBe('https://oauth2.googleapis.com/token');
    expect(config.googleSheetsApiUrl).toBe('https://sheets.googleapis.com');
  });

  it('read the key file once: its address is the service account’s', () => {
    const file = join(dir, 'key.json');
    writeFileSync(
      file,
      JSON.stringify({
        type: 'service_account',
        client_email: 'a@p.iam.gserviceaccount.com',
        private_key: pem,
      }),
    );
    process.env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE = file;
    expect(config.googleServiceAccountEmail).toBe('a@p.iam.gserviceaccount.com');
    writeFileSync(file, 'changed after the first read');
    expect(config.googleServiceAccount?.privateKey).toBe(pem);
  });

  it('take the key CloudFormation resolved into the environment over a file', () => {
    process.env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE = join(dir, 'absent.json');
    process.env.GOOGLE_SERVICE_ACCOUNT_EMAIL = 'deployed@p.iam.gserviceaccount.com';
    process.env.GOOGLE_SERVICE_ACCOUNT_PRIVATE_KEY = pem;
    expect(config.googleServiceAccount).toEqual({
      clientEmail: 'deployed@p.iam.gserviceaccount.com',
      privateKey: pem,
    });
  });

  it('give the address alone where it is deployed alone (the integrations list holds no key)', () => {
    process.env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE = join(dir, 'absent.json');
    process.env.GOOGLE_SERVICE_ACCOUNT_EMAIL = 'deployed@p.iam.gserviceaccount.com';
    delete process.env.GOOGLE_SERVICE_ACCOUNT_PRIVATE_KEY;
    expect(config.googleServiceAccountEmail).toBe('deployed@p.iam.gserviceaccount.com');
  });

  it('name the variables of a bad deployed key, never quoting it', () => {
    process.env.GOOGLE_SERVICE_ACCOUNT_EMAIL = 'other@p.iam.gserviceaccount.com';
    process.env.GOOGLE_SERVICE_ACCOUNT_PRIVATE_KEY = 'hunter2';
    let message = '';
    try {
      config.googleServiceAccount;
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /GOOGLE_SERVICE_ACCOUNT_PRIVATE_KEY: the secret has no PEM private_key/,
    );
    expect(message).not.toContain('hunter2');
  });

  it('name the variable for a missing or bad file, never quoting it', () => {
    process.env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE = join(dir, 'absent.json');
    expect(() => config.googleServiceAccount).toThrow(
      /GOOGLE_SERVICE_ACCOUNT_KEY_FILE: cannot read .*absent\.json \(ENOENT\)/,
    );
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ client_email: 'a@b.co', private_key: 'hunter2' }));
    process.env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE = bad;
    expect(() => config.googleServiceAccount).toThrow(/GOOGLE_SERVICE_ACCOUNT_KEY_FILE: .* no PEM/);
    expect(() => config.googleServiceAccount).not.toThrow(/hunter2/);
  });

  it('refuse a URL with credentials or another scheme', () => {
    process.env.GOOGLE_SHEETS_API_URL = 'ftp://sheets.example';
    expect(() => config.googleSheetsApiUrl).toThrow(
      /GOOGLE_SHEETS_API_URL must be an http\(s\) URL/,
    );
    process.env.GOOGLE_OAUTH_TOKEN_URL = 'https://user:pw@oauth.example/token';
    expect(() => config.googleOauthTokenUrl).toThrow(/GOOGLE_OAUTH_TOKEN_URL/);
  });
});

describe('the local stack’s Google settings', () => {
  const endpoints = { dynamodb: 'http://127.0.0.1:1', sqsS3: 'x', ses: 'y', scheduler: 'z' };
  const extra = {
    baseUrl: 'http://127.0.0.1:3',
    queueUrls: {},
    logLevel: 'warn',
    turnstileVerifyUrl: 't',
  };

  it('point the handlers at the emulator and the development key', () => {
    const google = {
      keyFile: '/s/key.json',
      tokenUrl: 'http://127.0.0.1:9/token',
      sheetsApiUrl: 'http://127.0.0.1:9',
    };
    expect(localEnvironment(endpoints, { ...extra, google })).toMatchObject({
      GOOGLE_SERVICE_ACCOUNT_KEY_FILE: '/s/key.json',
      GOOGLE_OAUTH_TOKEN_URL: 'http://127.0.0.1:9/token',
      GOOGLE_SHEETS_API_URL: 'http://127.0.0.1:9',
    });
  });

  it('give way to any GOOGLE_* in the runner’s environment (the others at their defaults)', () => {
    delete process.env.GOOGLE_SERVICE_ACCOUNT_KEY_FILE;
    delete process.env.GOOGLE_OAUTH_TOKEN_URL;
    delete process.env.GOOGLE_SHEETS_API_URL;
    expect(googleFromEnvironment()).toBe(false);
    process.env.GOOGLE_SHEETS_API_URL = 'http://127.0.0.1:7';
    expect(googleFromEnvironment()).toBe(true);
    // The stack then hands no emulator values (google undefined): the runner's own win.
    expect(localEnvironment(endpoints, extra)).toMatchObject({
      GOOGLE_SHEETS_API_URL: 'http://127.0.0.1:7',
      GOOGLE_OAUTH_TOKEN_URL: 'https://oauth2.googleapis.com/token',
      GOOGLE_SERVICE_ACCOUNT_KEY_FILE: '',
    });
  });
});
