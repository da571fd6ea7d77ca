import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '#config';
import { localEnvironment } from '#lib/local/environment.ts';
import { STACK_SETTINGS, settingDefaults } from '#lib/settings.ts';
import { SETTINGS, settingsEnvironment } from '#settings';

const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'));
const saved = { ...process.env };

afterEach(() => {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
});

describe('deployer settings, declared once', () => {
  it('each default lives in one table: cdk.json holds none of them', () => {
    const keys = [...Object.keys(SETTINGS), ...Object.keys(STACK_SETTINGS)];
    expect(keys.filter((key) => key in cdkJson.context)).toEqual([]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(settingDefaults()).toMatchObject({
      freeFormLimit: 3,
      tracing: false,
      apiStageName: 'prod',
    });
  });

  it('every function setting has its own environment variable', () => {
    const variables = Object.values(SETTINGS).map((s) => s.env);
    expect(new Set(variables).size).toBe(variables.length);
    expect(variables.every((v) => /^[A-Z][A-Z0-9_]*$/.test(v))).toBe(true);
  });

  it('config reads each setting from its variable, its default when unset', () => {
    delete process.env.SPAM_RETENTION_DAYS;
    expect(config.spamRetentionDays).toBe(30);
    process.env.SPAM_RETENTION_DAYS = '7';
    expect(config.spamRetentionDays).toBe(7);
    process.env.LOG_LEVEL = 'warn';
    expect(config.logLevel).toBe('warn');
  });

  it('a bad variable is an error that names it', () => {
    process.env.FREE_FORM_LIMIT = 'three';
    expect(() => config.freeFormLimit).toThrow(/FREE_FORM_LIMIT must be a whole number/);
    process.env.SUBMIT_RATE_PER_FORM_PER_MINUTE = '0';
    expect(() => config.submitRatePerFormPerMinute).toThrow(/>= 1/);
    process.env.LOG_LEVEL = 'verbose';
    expect(() => config.logLevel).toThrow(/LOG_LEVEL must be one of debug, info, warn, error/);
  });

  it('the stack and the local runner hand functions every setting, overrides included', () => {
    expect(settingsEnvironment({ freeFormLimit: 5 })).toMatchObject({
      FREE_FORM_LIMIT: '5',
      PRO_MONTHLY_SUBMISSIONS: '10000',
      SPAM_MONTHLY_CAP_PER_FORM: '1000',
    });
    process.env.SPAM_MONTHLY_CAP_PER_FORM = '40';
    const local = localEnvironment(
      { dynamodb: 'http://127.0.0.1:1', sqsS3: 'http://127.0.0.1:2', ses: 'x', scheduler: 'y' },
      { baseUrl: 'http://127.0.0.1:3', queueUrls: {}, logLevel: 'debug', turnstileVerifyUrl: 'z' },
    );
    expect(local).toMatchObject({
      SPAM_MONTHLY_CAP_PER_FORM: '40',
      SPAM_RETENTION_DAYS: '30',
      FREE_FORM_LIMIT: '3',
      LOG_LEVEL: 'debug',
    });
  });
});
