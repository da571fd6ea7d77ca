/**
 * The one place that reads configuration. Every value comes from an
 * environment variable that the CDK stack sets on the function and the local
 * runner sets on its own process, so handler code has no local branch.
 * Values are read lazily so a function only needs the variables it uses.
 */

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`missing configuration: ${name}`);
  return value;
}

function integer(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`configuration ${name} must be a whole number`);
  return value;
}

export const config = {
  get tableName() {
    return required('TABLE_NAME');
  },
  get uploadsBucket() {
    return required('UPLOADS_BUCKET');
  },
  /** `{base_url}` of SPEC.md: no trailing slash. */
  get baseUrl() {
    return required('BASE_URL').replace(/\/+$/, '');
  },
  /** Path-style S3 addressing, needed by the local S3 emulator. */
  get s3ForcePathStyle() {
    return process.env.S3_FORCE_PATH_STYLE === 'true';
  },
  get freeFormLimit() {
    return integer('FREE_FORM_LIMIT', 3);
  },
  get freeMonthlySubmissions() {
    return integer('FREE_MONTHLY_SUBMISSIONS', 100);
  },
  get proMonthlySubmissions() {
    return integer('PRO_MONTHLY_SUBMISSIONS', 10_000);
  },
  /** Submit posts a minute from one IP address to one form. */
  get submitRatePerIpPerMinute() {
    return integer('SUBMIT_RATE_PER_IP_PER_MINUTE', 30);
  },
  /** Submit posts a minute to one form from everywhere. */
  get submitRatePerFormPerMinute() {
    return integer('SUBMIT_RATE_PER_FORM_PER_MINUTE', 600);
  },
  /** Spam a form may store in a calendar month; later spam is dropped (`200 { ok: true }`). */
  get spamMonthlyCapPerForm() {
    return integer('SPAM_MONTHLY_CAP_PER_FORM', 1000);
  },
  /** Days spam is kept; older spam is deleted when the form next receives spam. */
  get spamRetentionDays() {
    return integer('SPAM_RETENTION_DAYS', 30);
  },
  /** Cloudflare Turnstile siteverify; tests point it at a local verifier. */
  get turnstileVerifyUrl() {
    return (
      process.env.TURNSTILE_VERIFY_URL ||
      'https://challenges.cloudflare.com/turnstile/v0/siteverify'
    );
  },
  /**
   * Bulk-change transactions in flight at once for one request. They all move
   * the same form item's counters, so more mostly conflict and retry.
   */
  get bulkParallelTransactions() {
    return Math.max(1, integer('BULK_PARALLEL_TRANSACTIONS', 2));
  },
  get managementRatePerMinute() {
    return integer('MANAGEMENT_RATE_PER_MINUTE', 300);
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
  /** Where the Scheduler puts invocations that keep failing; optional locally. */
  get scheduleDlqArn() {
    return process.env.SCHEDULE_DLQ_ARN || undefined;
  },
  get logLevel() {
    return process.env.LOG_LEVEL ?? 'info';
  },
};
