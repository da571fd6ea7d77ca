import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * Product metrics as CloudWatch Embedded Metric Format: one JSON line on
 * stdout per flush, which CloudWatch Logs turns into metrics (locally the
 * lines appear in the dev stack's output). Powertools Metrics writes them.
 *
 * Metrics live in the namespace `FormService` with the one dimension
 * `service: form-service` (a fixed name: locally every function shares one
 * process, and the metric name already says which worker counted).
 * Dimensions are low-cardinality only (a plan, an outcome), never a form,
 * team or submission id: each distinct value is a separate, billed metric.
 *
 * A function counts during its invocation and calls `flush()` once at the
 * end (in a `finally`). Counts are held per container until then; on Lambda a
 * container runs one invocation at a time. Locally, where invocations of
 * several functions share this module, a flush may also publish another
 * invocation's pending counts: every count is still published exactly once.
 */
export const METRICS_NAMESPACE = 'FormService';
export const METRICS_SERVICE = 'form-service';

/** Every product metric, named as the product speaks. */
export type MetricName =
  /** Public submit endpoint (`POST /s/{key}`), one count per post, by how it ended: */
  /** stored and not spam; */
  | 'SubmissionAccepted'
  /** stored as spam, dimension `rule`: `links` or `duplicate`; */
  | 'SubmissionSpam'
  /** dropped quietly, dimension `reason`: `blocked_ip`, `blocked_country`, `honeypot`, `fill_time`, `spam_cap`; */
  | 'SubmissionDropped'
  /** a retry answered from its `Idempotency-Key`'s record, nothing stored; */
  | 'SubmissionReplayed'
  /** refused, dimensions `status` and `code` (the error code, a closed set). */
  | 'SubmissionRejected'
  /** A deleted form's partition and uploads were purged (stream worker `formPurger`). */
  | 'FormPurged'
  /** Submissions never confirmed by email, deleted past their link's expiry; the value is how many. */
  | 'UnconfirmedDeleted'
  /** Spam past its retention deleted by the `spamPurger` worker; the value is how many. */
  | 'ExpiredSpamDeleted'
  | 'RetentionDeleted'
  /**
   * Attempts of the webhooks queue's messages (the webhook, Slack and Discord alike) by
   * outcome: a 2xx, one to try again, one not retried or out of time.
   */
  | 'WebhookDelivered'
  | 'WebhookRetried'
  | 'WebhookFailed'
  /** Messages put back, using no attempt, because their receiver is slow (docs/delivery.md#a-slow-receiver). */
  | 'WebhookPutBack'
  /** Deliveries ended unsent, dimension `reason`: `webhook_removed`, `integration_removed`, `plan_not_pro`, `submission_deleted`. */
  | 'WebhookCancelled'
  /** Emails sent, refused for good by SES (not retried), or failed for now (retried). */
  | 'EmailSent'
  | 'EmailRejected'
  | 'EmailRetried'
  /** Auto-replies not sent because their address got too many this hour. */
  | 'AutoReplyLimited'
  /** Confirmation emails not sent: over the mailbox's, the form's or the address's bound. */
  | 'ConfirmationLimited'
  /** SES events about sent emails, dimension `fate`: `delivered`, `bounced`, `complained`… */
  | 'EmailEvent'
  /** Addresses put on a team's suppression list, dimension `reason`: `bounce` or `complaint`. */
  | 'AddressSuppressed'
  /** Emails not sent because their recipient is on the team's suppression list. */
  | 'EmailSuppressed'
  /** Emails SES refused because it paused the team's tenant (retried, then kept in the DLQ). */
  | 'EmailPaused'
  /** Emails sent without the team's SES tenant, which could not be made ready. */
  | 'EmailTenantUnready'
  /** SES refused a send as paused, and not because the team's own tenant is (the account or the configuration set, or unknown). */
  | 'EmailSendingPaused'
  /** Suppressions lifted from the team's list whose SES tenant entry could not be lifted (SES failed). */
  | 'SesSuppressionNotLifted'
  /**
   * Malware scanning (docs/uploads-and-pages.md#malware-scanning), the `scanResultWorker`:
   * verdicts recorded, dimension `verdict` (`clean`, `infected`, `unsupported`, `failed`);
   */
  | 'FileScanned'
  /** files found infected, deleted from the bucket; */
  | 'FileInfected'
  /** files still waiting for their verdict `scanLateSeconds` (30 minutes) after their submission; */
  | 'FileScanLate'
  /**
   * scan events that changed nothing, dimension `reason`: read but not ours (`other_bucket`,
   * `other_event`, `not_a_submission_file`), unreadable (`unreadable`, `malformed`,
   * `unknown_status`), or about a file that has its verdict or is gone (`not_pending`,
   * `no_submission`, `no_file`, `other_object`);
   */
  | 'ScanEventDropped'
  /** the plan's own trouble: a tag not written, a plan in warning or error. */
  | 'ScanPlanProblem';

/**
 * The dimension names each metric is counted with, besides `service`: the
 * one declaration `count` is typed by and the dashboard's SEARCH expressions
 * are built from, so a graph can never look for a dimension set no code
 * writes.
 */
export const METRIC_DIMENSIONS = {
  SubmissionAccepted: [],
  SubmissionSpam: ['rule'],
  SubmissionDropped: ['reason'],
  SubmissionReplayed: [],
  SubmissionRejected: ['code', 'status'],
  FormPurged: [],
  ExpiredSpamDeleted: [],
  RetentionDeleted: [],
  UnconfirmedDeleted: [],
  WebhookDelivered: [],
  WebhookRetried: [],
  WebhookFailed: [],
  WebhookCancelled: ['reason'],
  WebhookPutBack: [],
  EmailSent: ['kind'],
  EmailRejected: ['kind'],
  EmailRetried: ['kind'],
  AutoReplyLimited: [],
  ConfirmationLimited: [],
  EmailEvent: ['fate'],
  AddressSuppressed: ['reason'],
  EmailSuppressed: ['kind'],
  EmailPaused: [],
  EmailTenantUnready: [],
  EmailSendingPaused: [],
  SesSuppressionNotLifted: [],
  FileScanned: ['verdict'],
  FileInfected: [],
  FileScanLate: [],
  ScanEventDropped: ['reason'],
  ScanPlanProblem: [],
} as const satisfies Record<MetricName, readonly string[]>;

/** The dimensions `name` is counted with: exactly its declared names. */
export type DimensionsOf<N extends MetricName> = Readonly<
  Record<(typeof METRIC_DIMENSIONS)[N][number], string>
>;

export type MetricDimensions = Readonly<Record<string, string>>;

/** One Powertools instance per dimension set: its dimensions apply to everything it publishes. */
const byDimensions = new Map<string, Metrics>();

function metricsFor(dimensions: MetricDimensions): Metrics {
  const entries = Object.entries(dimensions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const key = JSON.stringify(entries);
  let metrics = byDimensions.get(key);
  if (!metrics) {
    metrics = new Metrics({
      namespace: METRICS_NAMESPACE,
      serviceName: METRICS_SERVICE,
      defaultDimensions: Object.fromEntries(entries),
    });
    byDimensions.set(key, metrics);
  }
  return metrics;
}

/** Counts `value` (default 1) occurrences of `name`; published by the next `flush()`. */
export function count<N extends MetricName>(
  name: N,
  value = 1,
  ...dimensions: (typeof METRIC_DIMENSIONS)[N] extends readonly [] ? [] : [DimensionsOf<N>]
): void {
  metricsFor(dimensions[0] ?? {}).addMetric(name, MetricUnit.Count, value);
}

/** Writes the counts held so far as EMF lines and forgets them; nothing when none. */
export function flush(): void {
  for (const metrics of byDimensions.values()) {
    // publishStoredMetrics() with nothing stored only warns on stderr.
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  }
}
