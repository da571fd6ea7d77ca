import { QUEUES } from '#queues';

/** The local stack's SES configuration set: named so the emulator knows to publish events. */
export const LOCAL_EMAIL_CONFIGURATION_SET = 'form-service-local';

import { SETTINGS, settingsEnvironment } from '#settings';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './lambda-runtime.ts';

/** Names of the local resources; fixed so a persisted stack finds its data again. */
export const LOCAL_TABLE = 'form-service-local';
export const LOCAL_BUCKET = 'form-service-uploads-local';
export const LOCAL_QUEUE_PREFIX = 'form-service-local';
export const LOCAL_SCHEDULE_GROUP = 'form-service-local';

export interface LocalEndpoints {
  dynamodb: string;
  sqsS3: string;
  ses: string;
  scheduler: string;
}

/**
 * The environment the handlers see locally: the same variables the CDK stack
 * sets on each function, plus the standard AWS_ENDPOINT_URL_* overrides that
 * point the SDK at the emulators. Nothing in lambdas/ knows it is local.
 */
export function localEnvironment(
  endpoints: LocalEndpoints,
  extra: {
    baseUrl: string;
    queueUrls: Record<string, string>;
    /** Each queue's dead-letter queue URL, by queue name. */
    deadLetterUrls?: Record<string, string>;
    logLevel: string;
    turnstileVerifyUrl: string;
    /** The keyed-hash secret (lib/local/keyed-hash-secret.ts). */
    keyedHashSecret?: string;
    /** The local Google emulator and its development key; left out when GOOGLE_* came from the runner's environment. */
    google?: { keyFile: string; tokenUrl: string; sheetsApiUrl: string };
  },
): Record<string, string> {
  const env: Record<string, string> = {
    AWS_REGION: LOCAL_REGION,
    AWS_DEFAULT_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    AWS_ENDPOINT_URL_DYNAMODB_STREAMS: endpoints.dynamodb,
    AWS_ENDPOINT_URL_SQS: endpoints.sqsS3,
    AWS_ENDPOINT_URL_S3: endpoints.sqsS3,
    AWS_ENDPOINT_URL_SESV2: endpoints.ses,
    AWS_ENDPOINT_URL_SCHEDULER: endpoints.scheduler,
    TABLE_NAME: LOCAL_TABLE,
    UPLOADS_BUCKET: LOCAL_BUCKET,
    S3_FORCE_PATH_STYLE: 'true',
    BASE_URL: extra.baseUrl,
    SCHEDULE_GROUP: LOCAL_SCHEDULE_GROUP,
    // The SES emulator's front publishes this set's events as SES would (emulators/ses-simulator.ts).
    EMAIL_CONFIGURATION_SET: LOCAL_EMAIL_CONFIGURATION_SET,
    EMAIL_CONFIGURATION_SET_ARN: `arn:aws:ses:${LOCAL_REGION}:${LOCAL_ACCOUNT}:configuration-set/${LOCAL_EMAIL_CONFIGURATION_SET}`,
    SCHEDULER_ROLE_ARN: `arn:aws:iam::${LOCAL_ACCOUNT}:role/form-service-local-scheduler`,
    TURNSTILE_VERIFY_URL: extra.turnstileVerifyUrl,
    ...(extra.keyedHashSecret ? { KEYED_HASH_SECRET: extra.keyedHashSecret } : {}),
    // Every deployer setting at its default, unless the runner's own environment sets it
    // (tests compress limits that way), as the stack would from CDK context.
    ...settingsEnvironment(
      Object.fromEntries(
        Object.entries(SETTINGS).map(([name, { env }]) => [name, process.env[env] || undefined]),
      ),
    ),
    ...(extra.google
      ? {
          GOOGLE_SERVICE_ACCOUNT_KEY_FILE: extra.google.keyFile,
          GOOGLE_OAUTH_TOKEN_URL: extra.google.tokenUrl,
          GOOGLE_SHEETS_API_URL: extra.google.sheetsApiUrl,
        }
      : {}),
    LOG_LEVEL: extra.logLevel,
    // The sender address's domain, as the stack's identity is by default.
    EMAIL_IDENTITY_ARN: `arn:aws:ses:${LOCAL_REGION}:${LOCAL_ACCOUNT}:identity/${(process.env.EMAIL_SENDER_ADDRESS || SETTINGS.emailSenderAddress.default).split('@')[1]}`,
    // A developer points a webhook at a receiver on their own machine; a deployed stack never may.
    WEBHOOK_ALLOW_LOOPBACK: 'true',
  };
  for (const queue of Object.values(QUEUES)) {
    const url = extra.queueUrls[queue.name];
    if (url) env[queue.urlVariable] = url;
    const deadLetterUrl = extra.deadLetterUrls?.[queue.name];
    if (deadLetterUrl) env[queue.deadLetterUrlVariable] = deadLetterUrl;
  }
  return env;
}

const GOOGLE_VARIABLES = [
  SETTINGS.googleServiceAccountKeyFile.env,
  SETTINGS.googleOauthTokenUrl.env,
  SETTINGS.googleSheetsApiUrl.env,
];

/**
 * Whether the runner was given any GOOGLE_* setting (docs/integrations.md#local-emulator):
 * then the local stack uses those (and Google's defaults for the others), not the emulator,
 * so it can be pointed at real Google or at a test's own stand-in.
 */
export function googleFromEnvironment(): boolean {
  return GOOGLE_VARIABLES.some((name) => Boolean(process.env[name]));
}
