import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/**
 * What a deployer may change without touching code. Every value is a CDK
 * context key with its default in cdk.json (the one place defaults live);
 * `cdk deploy -c freeFormLimit=5` overrides one. CLI overrides arrive as
 * strings, so numbers and booleans are parsed here, and a bad value stops the
 * synth with the key's name instead of deploying something half-configured.
 */
export interface ServiceSettings {
  /** Plan limits handed to every HTTP function (lambdas/config.ts). */
  freeFormLimit: number;
  freeMonthlySubmissions: number;
  proMonthlySubmissions: number;
  managementRatePerMinute: number;
  /** Submit posts a minute per IP per form, and per form. */
  submitRatePerIpPerMinute: number;
  submitRatePerFormPerMinute: number;
  /** Spam a form may store a month, and the days spam is kept. */
  spamMonthlyCapPerForm: number;
  spamRetentionDays: number;
  logLevel: LogLevel;
  logRetention: RetentionDays;
  /** Days S3 server access logs are kept before expiry. */
  accessLogRetentionDays: number;
  stageName: string;
  throttleRatePerSecond: number;
  throttleBurst: number;
  /** Public base URL when the API sits behind a custom domain; otherwise derived. */
  baseUrl: string | undefined;
  tableDeletionProtection: boolean;
  tracing: boolean;
  /**
   * Whether this stack sets the account-wide API Gateway CloudWatch role.
   * Execution logging needs one per account and region; turn this off where
   * the account already manages it.
   */
  apiGatewayCloudWatchRole: boolean;
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function raw(scope: Construct, key: string): unknown {
  const value: unknown = scope.node.tryGetContext(key);
  if (value === undefined || value === null) {
    throw new Error(`missing CDK context "${key}": it has a default in cdk.json`);
  }
  return value;
}

function wholeNumber(scope: Construct, key: string, min = 0): number {
  const value = Number(raw(scope, key));
  if (!Number.isInteger(value) || value < min) {
    throw new Error(
      `CDK context "${key}" must be a whole number >= ${min}, got ${String(raw(scope, key))}`,
    );
  }
  return value;
}

function flag(scope: Construct, key: string): boolean {
  const value = raw(scope, key);
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`CDK context "${key}" must be true or false, got ${String(value)}`);
}

function text(scope: Construct, key: string, pattern: RegExp): string {
  const value = String(raw(scope, key));
  if (!pattern.test(value))
    throw new Error(`CDK context "${key}" must match ${pattern}, got "${value}"`);
  return value;
}

function retention(scope: Construct, key: string): RetentionDays {
  const days = wholeNumber(scope, key, 1);
  const allowed = Object.values(RetentionDays).filter((v): v is number => typeof v === 'number');
  if (!allowed.includes(days)) {
    throw new Error(
      `CDK context "${key}" must be a CloudWatch retention (${allowed.join(', ')}), got ${days}`,
    );
  }
  return days as RetentionDays;
}

export function readSettings(scope: Construct): ServiceSettings {
  const baseUrl = String(raw(scope, 'baseUrl')).replace(/\/+$/, '');
  if (baseUrl !== '' && !/^https:\/\/[^\s/]+(\/\S*)?$/.test(baseUrl)) {
    throw new Error(`CDK context "baseUrl" must be empty or an https:// URL, got "${baseUrl}"`);
  }
  return {
    freeFormLimit: wholeNumber(scope, 'freeFormLimit'),
    freeMonthlySubmissions: wholeNumber(scope, 'freeMonthlySubmissions'),
    proMonthlySubmissions: wholeNumber(scope, 'proMonthlySubmissions'),
    managementRatePerMinute: wholeNumber(scope, 'managementRatePerMinute', 1),
    submitRatePerIpPerMinute: wholeNumber(scope, 'submitRatePerIpPerMinute', 1),
    submitRatePerFormPerMinute: wholeNumber(scope, 'submitRatePerFormPerMinute', 1),
    spamMonthlyCapPerForm: wholeNumber(scope, 'spamMonthlyCapPerForm'),
    spamRetentionDays: wholeNumber(scope, 'spamRetentionDays', 1),
    logLevel: text(scope, 'logLevel', new RegExp(`^(${LOG_LEVELS.join('|')})$`)) as LogLevel,
    logRetention: retention(scope, 'logRetentionDays'),
    accessLogRetentionDays: wholeNumber(scope, 'accessLogRetentionDays', 1),
    // API Gateway stage names: letters, digits, hyphens, underscores.
    stageName: text(scope, 'apiStageName', /^[A-Za-z0-9_-]{1,128}$/),
    throttleRatePerSecond: wholeNumber(scope, 'apiThrottleRatePerSecond', 1),
    throttleBurst: wholeNumber(scope, 'apiThrottleBurst', 1),
    baseUrl: baseUrl === '' ? undefined : baseUrl,
    tableDeletionProtection: flag(scope, 'tableDeletionProtection'),
    tracing: flag(scope, 'tracing'),
    apiGatewayCloudWatchRole: flag(scope, 'apiGatewayCloudWatchRole'),
  };
}
