import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import {
  emailAddress,
  flag,
  type Parser,
  parseWith,
  SETTINGS,
  type SettingValues,
  wholeNumber,
} from '#settings';
import {
  MAX_QUEUE_CONCURRENCY,
  MIN_QUEUE_CONCURRENCY,
  WEBHOOK_WORKER_MAX_CONCURRENCY,
} from '#workers';

/**
 * What a deployer may change without touching code, each a CDK context key
 * (`cdk deploy -c tracing=true`, or a `context` entry in cdk.json). Settings
 * the functions read are declared in lambdas/settings.ts; those only the
 * stack reads are declared here, the same way: a default and a parser, once.
 * CLI values arrive as strings, so every value is parsed from text, and a bad
 * one stops the synth with the key's name instead of deploying something
 * half-configured.
 */

const matching =
  (pattern: RegExp): Parser<string> =>
  (raw) => {
    if (!pattern.test(raw)) throw new Error(`must match ${pattern}, got "${raw}"`);
    return raw;
  };

/** A CloudWatch Logs retention: only some day counts exist. */
const retention: Parser<RetentionDays> = (raw) => {
  const days = wholeNumber(1)(raw);
  const allowed = Object.values(RetentionDays).filter((v): v is number => typeof v === 'number');
  if (!allowed.includes(days)) {
    throw new Error(`must be a CloudWatch retention (${allowed.join(', ')}), got ${days}`);
  }
  return days as RetentionDays;
};

/** A verified SES identity: a domain or one address. */
const emailIdentity: Parser<string> = (raw) => {
  if (!/^([^\s@,<>"]{1,64}@)?[a-z0-9.-]{1,253}\.[a-z]{2,}$/i.test(raw)) {
    throw new Error(`must be a domain or an email address, got "${raw}"`);
  }
  return raw;
};

/** Empty (the API's own address), or the https:// URL of a custom domain; no trailing slash. */
const baseUrl: Parser<string> = (raw) => {
  const url = raw.replace(/\/+$/, '');
  if (url !== '' && !/^https:\/\/[^\s/]+(\/\S*)?$/.test(url)) {
    throw new Error(`must be empty or an https:// URL, got "${raw}"`);
  }
  return url;
};

/** Empty, or a DNS name of two labels or more (lower case): `acme.test`, `forms.acme.test`. */
const domainName: Parser<string> = (raw) => {
  const name = raw.trim().toLowerCase().replace(/\.$/, '');
  const label = '[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?';
  if (name !== '' && (name.length > 253 || !new RegExp(`^(${label}\\.)+${label}$`).test(name))) {
    throw new Error(`must be empty or a domain name such as forms.example.com, got "${raw}"`);
  }
  return name;
};

/** A number (decimals allowed) at least `min`. */
const atLeast =
  (min: number): Parser<number> =>
  (raw) => {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value) || value < min) {
      throw new Error(`must be a number >= ${min}, got "${raw}"`);
    }
    return value;
  };

interface StackSetting<T> {
  default: T;
  parse: Parser<T>;
}
const stackSetting = <T>(definition: StackSetting<T>) => definition;

export const STACK_SETTINGS = {
  /** The CloudFormation stack. */
  stackName: stackSetting({
    default: 'FormService',
    parse: matching(/^[A-Za-z][A-Za-z0-9-]{0,127}$/),
  }),
  /** Days function and API logs are kept. */
  logRetentionDays: stackSetting({
    default: RetentionDays.ONE_MONTH,
    parse: retention,
  }),
  /** Days S3 server access logs are kept. */
  accessLogRetentionDays: stackSetting({
    default: 90,
    parse: wholeNumber(1),
  }),
  /** The API stage. */
  apiStageName: stackSetting({
    default: 'prod',
    // API Gateway stage names: letters, digits, hyphens, underscores.
    parse: matching(/^[A-Za-z0-9_-]{1,128}$/),
  }),
  /** Steady requests a second the stage takes. */
  apiThrottleRatePerSecond: stackSetting({
    default: 100,
    parse: wholeNumber(1),
  }),
  /** Burst requests the stage takes. */
  apiThrottleBurst: stackSetting({
    default: 200,
    parse: wholeNumber(1),
  }),
  /**
   * Steady requests a second the public submit route (`POST /s/{key}`) takes,
   * its own share of the stage's: a flood of posts cannot starve the
   * management API.
   */
  submitThrottleRatePerSecond: stackSetting({
    default: 50,
    parse: wholeNumber(1),
  }),
  /** Burst requests the public submit route takes. */
  submitThrottleBurst: stackSetting({
    default: 100,
    parse: wholeNumber(1),
  }),
  /**
   * Concurrent executions reserved for (and capping) the submit function, so
   * a flood cannot take the account's whole Lambda concurrency; 0 or empty:
   * none (the default: the function shares the account's unreserved pool).
   * Lambda refuses a reservation that leaves the account fewer than 10
   * unreserved, and new accounts often have 10 in all: `npm run admin --
   * deploy check` says what this account allows (docs/deploying.md#before-the-first-deploy).
   */
  submitReservedConcurrency: stackSetting({
    default: 0,
    parse: (raw) => (raw.trim() === '' ? 0 : wholeNumber(0)(raw)),
  }),
  /**
   * Concurrent invocations the webhook worker runs at most (its SQS event source's
   * maximum concurrency, 2 to 1,000), each sending up to 10 deliveries at once: a burst
   * waits in the queue instead of taking the account's Lambda concurrency
   * (docs/operations.md#bounded-workers).
   */
  webhookWorkerMaxConcurrency: stackSetting({
    default: WEBHOOK_WORKER_MAX_CONCURRENCY,
    parse: (raw) => {
      const value = wholeNumber(MIN_QUEUE_CONCURRENCY)(raw);
      if (value > MAX_QUEUE_CONCURRENCY) {
        throw new Error(`must be at most ${MAX_QUEUE_CONCURRENCY}, got ${value}`);
      }
      return value;
    },
  }),
  /**
   * The public address when a custom domain is in front that this stack does
   * not build; with `domainName` it is derived (`https://<domainName>`).
   */
  baseUrl: stackSetting({
    default: '',
    parse: baseUrl,
  }),
  /** Whether the table refuses deletion. */
  tableDeletionProtection: stackSetting({
    default: true,
    parse: flag,
  }),
  /** X-Ray for functions and stage. */
  tracing: stackSetting({ default: false, parse: flag }),
  /** The verified SES identity emails are sent as (empty: the sender address's domain). */
  sesIdentity: stackSetting({
    default: '',
    parse: (raw) => (raw === '' ? raw : emailIdentity(raw)),
  }),
  /**
   * A domain the stack makes the SES sending identity of: Easy DKIM, MAIL
   * FROM `bounce.<emailDomain>`, its DNS records written to the hosted zone
   * or given as outputs (docs/deploying.md#your-own-domain). Empty: the
   * identity is verified by hand (`sesIdentity`).
   */
  emailDomain: stackSetting({ default: '', parse: domainName }),
  /**
   * A custom domain for the API, the hosted pages and the dashboard
   * (`forms.acme.test`): certificate, API Gateway domain name, mapping and,
   * with a hosted zone, its alias record. Needs `hostedZoneId` or
   * `certificateArn`.
   */
  domainName: stackSetting({ default: '', parse: domainName }),
  /** A Route 53 public hosted zone the stack writes DNS records to (with `hostedZoneName`). */
  hostedZoneId: stackSetting({
    default: '',
    parse: (raw) => (raw.trim() === '' ? '' : matching(/^Z[A-Z0-9]{1,31}$/)(raw.trim())),
  }),
  /** The hosted zone's domain (`acme.test`): given, so synth needs no AWS lookup. */
  hostedZoneName: stackSetting({ default: '', parse: domainName }),
  /**
   * An ACM certificate in us-east-1 for `domainName` (the domain is edge-optimized:
   * CloudFront takes certificates of us-east-1 only), when the stack is not to request one.
   */
  certificateArn: stackSetting({
    default: '',
    parse: (raw) =>
      raw.trim() === ''
        ? ''
        : matching(/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[A-Za-z0-9-]+$/)(raw.trim()),
  }),
  /**
   * Where alarm notifications go besides the alarm topic: an email address
   * subscribed to it (AWS mails a confirmation link first); empty: none.
   */
  alarmEmail: stackSetting({
    default: '',
    parse: (raw) => (raw.trim() === '' ? '' : emailAddress(raw.trim())),
  }),
  /** Alarm when a function's errors over 5 minutes exceed this. */
  alarmLambdaErrors: stackSetting({ default: 0, parse: wholeNumber(0) }),
  /** Alarm when a function's throttled invocations over 5 minutes exceed this. */
  alarmLambdaThrottles: stackSetting({ default: 0, parse: wholeNumber(0) }),
  /** Alarm when the share of API requests answered 5xx over 5 minutes exceeds this percentage. */
  alarmApi5xxPercent: stackSetting({ default: 1, parse: atLeast(0) }),
  /** The 5xx-rate alarm counts the share only over 5 minutes with at least this many API requests. */
  alarmApi5xxMinRequests: stackSetting({ default: 20, parse: wholeNumber(1) }),
  /** Alarm when the p99 latency of `POST /s/{key}` over 5 minutes exceeds this many milliseconds. */
  alarmSubmitP99LatencyMs: stackSetting({ default: 3000, parse: wholeNumber(1) }),
  /** Alarm when a table-stream worker's iterator age (maximum) exceeds this many seconds. */
  alarmIteratorAgeSeconds: stackSetting({ default: 60, parse: wholeNumber(1) }),
  /** Alarm when the oldest message of a dead-letter queue is older than this many seconds. */
  alarmDeadLetterAgeSeconds: stackSetting({ default: 3600, parse: wholeNumber(60) }),
  /** Alarm when webhook deliveries given up (`WebhookFailed`) over 5 minutes exceed this. */
  alarmWebhookFailures: stackSetting({ default: 0, parse: wholeNumber(0) }),
  /** Alarm when emails SES refused (`EmailRejected`, both kinds) over 5 minutes exceed this. */
  alarmEmailRejections: stackSetting({ default: 0, parse: wholeNumber(0) }),
  /** Alarm when SES's bounce rate of the stack's emails exceeds this percentage (AWS reviews at 5). */
  alarmSesBounceRatePercent: stackSetting({ default: 2, parse: atLeast(0) }),
  /** Alarm when SES's complaint rate of the stack's emails exceeds this percentage (AWS reviews at 0.1). */
  alarmSesComplaintRatePercent: stackSetting({ default: 0.05, parse: atLeast(0) }),
  /**
   * The Secrets Manager secret (its name) holding the Google service account's JSON key
   * (docs/integrations.md#google-cloud-setup); empty: no key, and Sheets is not offered.
   */
  googleServiceAccountSecret: stackSetting({
    default: '',
    parse: matching(/^$|^[A-Za-z0-9/_+=.@-]{1,512}$/),
  }),
  /**
   * The keyed-hash secret a destroyed stack kept (its complete ARN), for a stack
   * restored over the data it hashed (docs/deploying.md#what-a-destroy-keeps);
   * empty: the stack makes its own.
   */
  keyedHashSecretArn: stackSetting({
    default: '',
    parse: (raw) =>
      raw.trim() === ''
        ? ''
        : matching(
            /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+-[A-Za-z0-9]{6}$/,
          )(raw.trim()),
  }),
  /**
   * A WAF web ACL to put in front of the API's stage: the ARN of a REGIONAL
   * web ACL in the stack's region (API Gateway stages take those, edge-optimized
   * or not); empty: none.
   */
  webAclArn: stackSetting({
    default: '',
    parse: (raw) =>
      raw.trim() === ''
        ? ''
        : matching(
            /^arn:aws[a-z-]*:wafv2:[a-z0-9-]+:\d{12}:regional\/webacl\/[A-Za-z0-9_-]{1,128}\/[a-f0-9-]{36}$/,
          )(raw.trim()),
  }),
  /** Whether this stack sets the account's API Gateway logging role. */
  apiGatewayCloudWatchRole: stackSetting({
    default: true,
    parse: flag,
    // Execution logging needs one role per account and region.
  }),
} as const;

type StackSettingName = keyof typeof STACK_SETTINGS;
type StackSettingValues = {
  readonly [K in StackSettingName]: (typeof STACK_SETTINGS)[K]['default'];
};

export type ServiceSettings = SettingValues & StackSettingValues;

/** Every setting's default, by context key: what a deployment gets when cdk.json is silent. */
export function settingDefaults(): Record<string, unknown> {
  return Object.fromEntries(
    [...Object.entries(SETTINGS), ...Object.entries(STACK_SETTINGS)].map(([key, definition]) => [
      key,
      definition.default,
    ]),
  );
}

export function readSettings(scope: Construct): ServiceSettings {
  const definitions: [
    string,
    {
      default: unknown;
      parse: Parser<unknown>;
      deployerMaySet?: false;
      deployerMustSet?: { why: string };
    },
  ][] = [...Object.entries(SETTINGS), ...Object.entries(STACK_SETTINGS)];
  const values: Record<string, unknown> = {};
  for (const [key, definition] of definitions) {
    const raw: unknown = scope.node.tryGetContext(key);
    if ((raw === undefined || raw === null) && definition.deployerMustSet) {
      // Before any construct exists: nothing is created, nothing is left to roll back.
      throw new Error(`CDK context "${key}" is not set: ${definition.deployerMustSet.why}`);
    }
    const fixed = 'deployerMaySet' in definition && definition.deployerMaySet === false;
    values[key] =
      raw === undefined || raw === null || fixed
        ? definition.default
        : parseWith(definition.parse, String(raw), `CDK context "${key}"`);
  }
  return values as ServiceSettings;
}
