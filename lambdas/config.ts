import { readFileSync, statSync } from 'node:fs';
import {
  MAX_KEY_FILE_BYTES,
  parseServiceAccountKey,
  type ServiceAccountKey,
} from '#domain/google-key.ts';
import { QUEUES, type QueueName } from './queues.ts';
import {
  type Parser,
  parseWith,
  SETTINGS,
  type SettingName,
  type SettingValues,
} from './settings.ts';

/**
 * The one place that reads configuration. Every value comes from an
 * environment variable that the CDK stack sets on the function and the local
 * runner sets on its own process, so handler code has no local branch.
 * Values are read lazily so a function only needs the variables it uses.
 * Deployer settings are declared in lambdas/settings.ts, not here.
 */

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`missing configuration: ${name}`);
  return value;
}

/** What the stack wires in: resource names, addresses, the scheduler's targets. */
const wiring = {
  get tableName() {
    return required('TABLE_NAME');
  },
  get uploadsBucket() {
    return required('UPLOADS_BUCKET');
  },
  /** `{base_url}` of the form endpoints (docs/forms.md#forms): no trailing slash. */
  get baseUrl() {
    return required('BASE_URL').replace(/\/+$/, '');
  },
  /** Path-style S3 addressing, needed by the local S3 emulator. */
  get s3ForcePathStyle() {
    return process.env.S3_FORCE_PATH_STYLE === 'true';
  },
  /** Cloudflare Turnstile siteverify; tests point it at a local verifier. */
  get turnstileVerifyUrl() {
    return (
      process.env.TURNSTILE_VERIFY_URL ||
      'https://challenges.cloudflare.com/turnstile/v0/siteverify'
    );
  },
  /** EventBridge Scheduler group that holds the one-time close schedules. */
  get scheduleGroup() {
    return required('SCHEDULE_GROUP');
  },
  /** Role the Scheduler assumes to invoke the form closer. */
  get schedulerRoleArn() {
    return required('SCHEDULER_ROLE_ARN');
  },
  get formCloserArn() {
    return required('FORM_CLOSER_ARN');
  },
  /** The retention sweeper, target of each form's next sweep (docs/submissions.md#retention). */
  get retentionSweeperArn() {
    return required('RETENTION_SWEEPER_ARN');
  },
  /** The pending sweeper, target of each form's next purge of unconfirmed posts (docs/submit.md#confirm-by-email). */
  get pendingSweeperArn() {
    return required('PENDING_SWEEPER_ARN');
  },
  /**
   * The deployment's secret for keyed hashes of personal data (a team's visitor
   * addresses, docs/people.md#visitor-addresses): generated once per stack in
   * Secrets Manager, resolved into the variable by CloudFormation, and by the
   * local stack per state directory. Only functions granted `secrets:keyedHash`
   * carry it; read only when a hash is made. Never logged.
   */
  get keyedHashSecret() {
    return required('KEYED_HASH_SECRET');
  },
  /**
   * The SES configuration set every email is sent with, whose events tell each
   * email's fate (docs/delivery.md#what-became-of-an-email); none: no events.
   */
  get emailConfigurationSet() {
    return process.env.EMAIL_CONFIGURATION_SET || undefined;
  },
  /** The sending identity's and the configuration set's ARNs: what each team's SES tenant is associated with. */
  get emailIdentityArn() {
    return required('EMAIL_IDENTITY_ARN');
  },
  get emailConfigurationSetArn() {
    return process.env.EMAIL_CONFIGURATION_SET_ARN || undefined;
  },
  /**
   * The Google service account key (docs/integrations.md#google-cloud-setup):
   * deployed, its `client_email` and `private_key` as CloudFormation resolved
   * them from the deployer's secret into `GOOGLE_SERVICE_ACCOUNT_EMAIL` and
   * `GOOGLE_SERVICE_ACCOUNT_PRIVATE_KEY` (functions granted
   * `secrets:googleServiceAccount`); locally, the file of
   * `GOOGLE_SERVICE_ACCOUNT_KEY_FILE`. Read and checked once, undefined when
   * there is neither (Sheets not offered). A key that is missing, too large
   * or not a key is an error naming the variable, never quoting the key.
   * Never logged.
   */
  get googleServiceAccount(): ServiceAccountKey | undefined {
    const email = process.env.GOOGLE_SERVICE_ACCOUNT_EMAIL;
    const privateKey = process.env.GOOGLE_SERVICE_ACCOUNT_PRIVATE_KEY;
    if (email || privateKey) {
      const source = `${DEPLOYED_KEY}${email}\n${privateKey}`;
      if (googleKey?.file !== source) {
        googleKey = { file: source, key: deployedServiceAccountKey(email, privateKey) };
      }
      return googleKey.key;
    }
    const file = config.googleServiceAccountKeyFile;
    if (file === '') return undefined;
    if (googleKey?.file !== file) googleKey = { file, key: readServiceAccountKey(file) };
    return googleKey.key;
  },
  /**
   * The service account's address (`client_email`), the one a spreadsheet is
   * shared with; undefined without a key. A function granted the address alone
   * (`secrets:googleServiceAccountEmail`: the integrations list) has it with no
   * private key, so it is read apart from the key.
   */
  get googleServiceAccountEmail(): string | undefined {
    const deployed = process.env.GOOGLE_SERVICE_ACCOUNT_EMAIL;
    if (deployed && !process.env.GOOGLE_SERVICE_ACCOUNT_PRIVATE_KEY) return deployed;
    return config.googleServiceAccount?.clientEmail;
  },
  /** Where the Scheduler puts invocations that keep failing; optional locally. */
  get scheduleDlqArn() {
    return process.env.SCHEDULE_DLQ_ARN || undefined;
  },
};

let googleKey: { file: string; key: ServiceAccountKey } | undefined;
/** The cache's name for a key resolved into the environment at deploy (a file path never starts so). */
const DEPLOYED_KEY = '\0deployed:';

function deployedServiceAccountKey(
  email: string | undefined,
  privateKey: string | undefined,
): ServiceAccountKey {
  try {
    return parseServiceAccountKey(JSON.stringify({ client_email: email, private_key: privateKey }));
  } catch (error) {
    throw new Error(
      `configuration GOOGLE_SERVICE_ACCOUNT_EMAIL/GOOGLE_SERVICE_ACCOUNT_PRIVATE_KEY: the secret ${(error as Error).message}`,
    );
  }
}

function readServiceAccountKey(file: string): ServiceAccountKey {
  const source = 'configuration GOOGLE_SERVICE_ACCOUNT_KEY_FILE';
  let text: string;
  try {
    if (statSync(file).size > MAX_KEY_FILE_BYTES) {
      throw new Error(`is larger than ${MAX_KEY_FILE_BYTES} bytes`);
    }
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`${source}: cannot read ${file} (${code ?? (error as Error).message})`);
  }
  try {
    return parseServiceAccountKey(text);
  } catch (error) {
    throw new Error(`${source}: ${file} ${(error as Error).message}`);
  }
}

/** A setting from its variable, or its default when the variable is unset. */
function setting<K extends SettingName>(name: K): SettingValues[K] {
  const { env } = SETTINGS[name];
  const raw = process.env[env];
  if (raw === undefined || raw === '') return SETTINGS[name].default as SettingValues[K];
  const parse = SETTINGS[name].parse as Parser<SettingValues[K]>;
  return parseWith(parse, raw, `configuration ${env}`);
}

const settingGetters = Object.fromEntries(
  (Object.keys(SETTINGS) as SettingName[]).map((name) => [
    name,
    { enumerable: true, get: () => setting(name) },
  ]),
);

/** The URL of one queue of lambdas/queues.ts, from its variable. */
export function queueUrl(name: QueueName): string {
  return required(QUEUES[name].urlVariable);
}

/** The URL of one queue's dead-letter queue (only with `queue:<name>:deadLetter` access). */
export function deadLetterQueueUrl(name: QueueName): string {
  return required(QUEUES[name].deadLetterUrlVariable);
}

/** The wiring, then every deployer setting (`config.freeFormLimit`, …). */
export const config = Object.defineProperties(wiring, settingGetters) as typeof wiring &
  SettingValues;
