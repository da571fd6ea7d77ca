/**
 * Every setting a deployer may change that the functions read, declared once
 * as data: its environment variable, its default and its parser. The CDK
 * stack reads each from CDK context (`cdk deploy -c spamRetentionDays=14`)
 * and hands it to every function as that variable; the local runner sets the
 * defaults unless its own environment already holds the variable (tests
 * compress limits that way); `#config` reads and parses the variable. A new
 * setting is one entry here, plus its use.
 *
 * Settings only the stack reads (log retention, throttling, …) are the same
 * kind of table in lib/settings.ts.
 */

import { DEFAULT_RETRY_DELAYS_SECONDS } from '#domain/webhook-delivery.ts';

/** Parses a raw value (a context value or an environment variable, as text); throws a reason. */
export type Parser<T> = (raw: string) => T;

export interface SettingDefinition<T> {
  /** The environment variable that carries it to functions. */
  env: string;
  default: T;
  parse: Parser<T>;
  /**
   * False for a setting only the local runner may change (the stack always
   * deploys the default, whatever the context says).
   */
  deployerMaySet?: false;
  /**
   * A deployment must name its own value: the default serves the local stack
   * and the tests only, and a synth without one stops with `why`.
   */
  deployerMustSet?: { why: string };
}

export const wholeNumber =
  (min = 0): Parser<number> =>
  (raw) => {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isInteger(value) || value < min) {
      throw new Error(`must be a whole number >= ${min}, got "${raw}"`);
    }
    return value;
  };

export const flag: Parser<boolean> = (raw) => {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new Error(`must be true or false, got "${raw}"`);
};

export const oneOf =
  <const T extends string>(...allowed: T[]): Parser<T> =>
  (raw) => {
    if (!(allowed as string[]).includes(raw)) {
      throw new Error(`must be one of ${allowed.join(', ')}, got "${raw}"`);
    }
    return raw as T;
  };

/** Comma-separated whole seconds, each at least 1, at least one. */
export const secondsList: Parser<readonly number[]> = (raw) => {
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^[1-9]\d*$/.test(part))) {
    throw new Error(`must be comma-separated whole seconds >= 1, got "${raw}"`);
  }
  return parts.map(Number);
};

/** A plain email address for a header: one line, `local@domain`. */
export const emailAddress: Parser<string> = (raw) => {
  if (!/^[^\s@,<>"]{1,64}@[a-z0-9.-]{1,253}\.[a-z]{2,}$/i.test(raw)) {
    throw new Error(`must be an email address, got "${raw}"`);
  }
  return raw;
};

/** A file's path: one line, at most 1,024 characters (empty: none). */
export const filePath: Parser<string> = (raw) => {
  if (raw.length > 1024 || /[\r\n\0]/.test(raw)) {
    throw new Error('must be a file path on one line, at most 1024 characters');
  }
  return raw;
};

/** An absolute `https://` (or, for a local stand-in, `http://`) URL without credentials. */
export const httpUrl: Parser<string> = (raw) => {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || !['https:', 'http:'].includes(url.protocol) || url.username || url.password) {
    throw new Error(`must be an http(s) URL without credentials, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
};

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `malwareScanning`'s values (docs/uploads-and-pages.md#malware-scanning). */
export const MALWARE_SCANNING_MODES = ['guardduty', 'off'] as const;
export type MalwareScanning = (typeof MALWARE_SCANNING_MODES)[number];

const setting = <T>(definition: SettingDefinition<T>) => definition;

export const SETTINGS = {
  /** Forms a Free team may hold. */
  freeFormLimit: setting({
    env: 'FREE_FORM_LIMIT',
    default: 3,
    parse: wholeNumber(),
  }),
  /** A Free team's submissions a calendar month. */
  freeMonthlySubmissions: setting({
    env: 'FREE_MONTHLY_SUBMISSIONS',
    default: 100,
    parse: wholeNumber(),
  }),
  /** A Pro team's submissions a calendar month. */
  proMonthlySubmissions: setting({
    env: 'PRO_MONTHLY_SUBMISSIONS',
    default: 10_000,
    parse: wholeNumber(),
  }),
  /** Management requests a minute per API key. */
  managementRatePerMinute: setting({
    env: 'MANAGEMENT_RATE_PER_MINUTE',
    default: 300,
    parse: wholeNumber(1),
  }),
  /** Posts a minute to one form from one IPv4 address or IPv6 /64. */
  submitRatePerIpPerMinute: setting({
    env: 'SUBMIT_RATE_PER_IP_PER_MINUTE',
    default: 30,
    parse: wholeNumber(1),
  }),
  /** Posts a minute to one form from everywhere. */
  submitRatePerFormPerMinute: setting({
    env: 'SUBMIT_RATE_PER_FORM_PER_MINUTE',
    default: 600,
    parse: wholeNumber(1),
  }),
  /** Spam a form stores a calendar month; later spam is dropped. */
  spamMonthlyCapPerForm: setting({
    env: 'SPAM_MONTHLY_CAP_PER_FORM',
    default: 1000,
    parse: wholeNumber(),
  }),
  /** Days spam is kept; older spam goes when the form next stores spam. */
  spamRetentionDays: setting({
    env: 'SPAM_RETENTION_DAYS',
    default: 30,
    parse: wholeNumber(1),
  }),
  /**
   * The length of one day of a form's `retentionDays` (docs/submissions.md#retention), in
   * seconds. Only the test stack shortens it, so a test sees a submission pass its age.
   */
  retentionDaySeconds: setting({
    env: 'RETENTION_DAY_SECONDS',
    default: 86_400,
    parse: wholeNumber(1),
    deployerMaySet: false,
  }),
  /**
   * How long a confirmation link works after its post (docs/submit.md#confirm-by-email), in
   * seconds: 48 hours; an unconfirmed submission is deleted once it has passed. The test
   * stack shortens it, so a test sees a link expire.
   */
  confirmLinkSeconds: setting({
    env: 'CONFIRM_LINK_SECONDS',
    default: 172_800,
    parse: wholeNumber(1),
    deployerMaySet: false,
  }),
  /**
   * How often a form with a `retentionDays` is swept even when nothing else happens to it
   * (docs/submissions.md#retention): a submission goes at most this long after its age.
   * The test stack shortens it.
   */
  retentionSweepSeconds: setting({
    env: 'RETENTION_SWEEP_SECONDS',
    default: 43_200,
    parse: wholeNumber(1),
    deployerMaySet: false,
  }),
  /**
   * The fill-time check (docs/submit.md#the-fill-time-check): a post sooner than this many
   * milliseconds after its page was drawn is taken for a bot. The hosted page and the embed
   * learn it from the form they draw. The test stack sets it low so browser tests post at once.
   */
  minFillTimeMs: setting({
    env: 'MIN_FILL_TIME_MS',
    default: 2000,
    parse: wholeNumber(),
  }),
  /**
   * How long a post's `Idempotency-Key` answers its retries (docs/submit.md#idempotency-key);
   * after it, the key is free again. The test stack sets seconds so a test sees it pass.
   */
  idempotencyWindowSeconds: setting({
    env: 'IDEMPOTENCY_WINDOW_SECONDS',
    default: 86_400,
    parse: wholeNumber(1),
  }),
  /** Transactions in flight at once for one bulk change (they meet on one form item). */
  bulkParallelTransactions: setting({
    env: 'BULK_PARALLEL_TRANSACTIONS',
    default: 2,
    parse: wholeNumber(1),
  }),
  /** Delays before each webhook retry (jittered ±20 %); their count is the retries. */
  webhookRetryDelaysSeconds: setting({
    env: 'WEBHOOK_RETRY_DELAYS_SECONDS',
    default: DEFAULT_RETRY_DELAYS_SECONDS,
    parse: secondsList,
  }),
  /**
   * How long a webhook receiver, or Google for a Sheets call, has to answer one attempt
   * (docs/delivery.md#sending-rules): 10 s. Only the test stack shortens it, so a test sees a
   * hanging receiver cut off in seconds.
   */
  receiverTimeoutMs: setting({
    env: 'RECEIVER_TIMEOUT_MS',
    default: 10_000,
    parse: wholeNumber(1),
    deployerMaySet: false,
  }),
  /** Webhooks may target loopback addresses (the local stack only). */
  webhookAllowLoopback: setting({
    env: 'WEBHOOK_ALLOW_LOOPBACK',
    default: false,
    parse: flag,
    deployerMaySet: false,
  }),
  /**
   * Each team sends as its own SES tenant (docs/delivery.md#one-team-cannot-pause-everyones-mail):
   * its reputation, pausing and suppression are its own. `false` for an account
   * or region that cannot use SES tenants: every team then shares the account's.
   */
  sesTenants: setting({
    env: 'SES_TENANTS',
    default: true,
    parse: flag,
  }),
  /**
   * Emails a second the email worker keeps under (docs/operations.md#bounded-workers):
   * the account's SES maximum send rate (the SES console's sending quota; 14 for an
   * account newly out of the sandbox, 1 in the sandbox), less what other senders of the
   * account need. It sizes the email worker's concurrency (lambdas/workers.ts
   * `emailWorkerConcurrency`) and the worker paces itself by it.
   */
  sesSendRatePerSecond: setting({
    env: 'SES_SEND_RATE_PER_SECOND',
    default: 14,
    parse: wholeNumber(1),
  }),
  /**
   * The From address of every email; its domain (or itself) must be a verified SES
   * identity. The default is the local stack's: a deployment names its own.
   */
  emailSenderAddress: setting({
    env: 'EMAIL_SENDER_ADDRESS',
    default: 'forms@example.com',
    parse: emailAddress,
    deployerMustSet: {
      why: 'every email (sign-in links included) is sent from it, and SES refuses forms@example.com. Deploy with -c emailSenderAddress=forms@your-domain: an address SES has verified, an address on a domain it has verified, or one on emailDomain (docs/deploying.md#email)',
    },
  }),
  /**
   * A Google service account's JSON key file (docs/integrations.md#google-cloud-setup),
   * for local use; empty: no key, and Sheets is not offered. Deployed, the key comes
   * from the Secrets Manager secret named by CDK context `googleServiceAccountSecret`.
   */
  googleServiceAccountKeyFile: setting({
    env: 'GOOGLE_SERVICE_ACCOUNT_KEY_FILE',
    default: '',
    parse: filePath,
    deployerMaySet: false,
  }),
  /** Where a signed JWT is exchanged for an access token; the local stack's emulator locally. */
  googleOauthTokenUrl: setting({
    env: 'GOOGLE_OAUTH_TOKEN_URL',
    default: 'https://oauth2.googleapis.com/token',
    parse: httpUrl,
  }),
  /** The Sheets API's origin (`/v4/spreadsheets/…` is added); the local stack's emulator locally. */
  googleSheetsApiUrl: setting({
    env: 'GOOGLE_SHEETS_API_URL',
    default: 'https://sheets.googleapis.com',
    parse: httpUrl,
  }),
  /**
   * Whether uploaded files are checked for malware before anyone may open them
   * (docs/uploads-and-pages.md#malware-scanning): `guardduty`, GuardDuty Malware
   * Protection for S3 on the uploads bucket, each file `pending` until its verdict
   * and downloadable only once clean; `off`, no plan and no bucket policy, files
   * `not_scanned` and downloadable as before (a Region without the feature:
   * `npm run admin -- deploy check` says so). The stack builds the plan, and the
   * functions know whether a verdict is coming.
   */
  malwareScanning: setting({
    env: 'MALWARE_SCANNING',
    default: 'guardduty' as MalwareScanning,
    parse: oneOf(...MALWARE_SCANNING_MODES),
  }),
  /**
   * How long after its submission a file may still wait for its verdict before
   * it counts as late (`FileScanLate`, with an alarm): 30 minutes. Only the test
   * stack shortens it, so a test sees a dropped verdict counted.
   */
  scanLateSeconds: setting({
    env: 'SCAN_LATE_SECONDS',
    default: 1800,
    parse: wholeNumber(1),
    deployerMaySet: false,
  }),
  /** The lowest level logged. */
  logLevel: setting({
    env: 'LOG_LEVEL',
    default: 'info' as LogLevel,
    parse: oneOf(...LOG_LEVELS),
  }),
} as const;

export type SettingName = keyof typeof SETTINGS;
export type SettingValues = {
  readonly [K in SettingName]: (typeof SETTINGS)[K]['default'];
};

/** Parses a raw value, naming `source` (the variable or context key) when it is bad. */
export function parseWith<T>(parse: Parser<T>, raw: string, source: string): T {
  try {
    return parse(raw);
  } catch (error) {
    throw new Error(`${source} ${(error as Error).message}`);
  }
}

/** The environment of a function with every setting at `values` (defaults where left out). */
export function settingsEnvironment(
  values: Partial<Record<SettingName, unknown>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, definition] of Object.entries(SETTINGS)) {
    env[definition.env] = String(values[name as SettingName] ?? definition.default);
  }
  return env;
}
