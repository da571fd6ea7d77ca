import type { SettingValues } from './settings.ts';

/**
 * The service's queues as plain data, read by the CDK stack and the local
 * bootstrap alike. Each has a dead-letter queue; a message that fails
 * `maxReceiveCount` times lands there for an operator.
 */
export type QueueName = keyof typeof QUEUES;

export interface QueueDefinition {
  /** Logical name; the local queue is named `<prefix>-<name>`. */
  name: string;
  /** Environment variable that carries the queue URL to functions. */
  urlVariable: string;
  /**
   * Environment variable that carries its dead-letter queue's URL to a
   * function granted `queue:<name>:deadLetter` (one that moves a message
   * there itself).
   */
  deadLetterUrlVariable: string;
  /** At least 6 × its consumer's timeout (AWS's advice for Lambda consumers). */
  visibilityTimeoutSeconds: number;
  /** Receives before the dead-letter queue, from the deployment's settings. */
  maxReceiveCount: (settings: Pick<SettingValues, 'webhookRetryDelaysSeconds'>) => number;
  /**
   * Built only in a deployment whose settings want it (its worker and every
   * grant on it go with it); always when absent.
   */
  deployedWhen?: (settings: Pick<SettingValues, 'malwareScanning'>) => boolean;
  /**
   * A FIFO queue (its name and its dead-letter queue's end in `.fifo`): each
   * message is sent with a group id, and a group's messages are received one
   * at a time, in order; a message hidden for a retry holds its group back.
   */
  fifo?: boolean;
}

/**
 * Receives of a webhook message that may send nothing without costing a
 * retry. SQS counts every receive, also one that never reaches the worker's
 * send: a throttled Lambda invocation hands its batch back with the count
 * raised (AWS advises a maxReceiveCount of at least 5 for this), and so does a
 * worker that timed out or crashed first. The worker numbers attempts from
 * the delivery log, not from receives, and moves a message whose retries are
 * spent to the dead-letter queue itself; SQS's own move after this many
 * extra receives is only the backstop for a message that never gets through
 * (a worker failing on it every time).
 */
export const WEBHOOK_LOST_RECEIVE_SLACK = 5;

export const QUEUES = {
  webhooks: {
    name: 'webhooks',
    urlVariable: 'WEBHOOK_QUEUE_URL',
    deadLetterUrlVariable: 'WEBHOOK_DEAD_LETTER_QUEUE_URL',
    visibilityTimeoutSeconds: 180,
    // The first attempt, one per retry delay, and slack for receives that sent nothing.
    maxReceiveCount: (settings) =>
      settings.webhookRetryDelaysSeconds.length + 1 + WEBHOOK_LOST_RECEIVE_SLACK,
  },
  /**
   * One message per submission for a form's Google Sheets integration
   * (docs/integrations.md#sending-rows): FIFO, grouped by form, so a form's
   * rows are appended one at a time in the order stored and two appends
   * never race on the header row. A row waiting for its retry holds its
   * form's later rows back (that is the order kept), never other forms'.
   */
  sheets: {
    name: 'sheets',
    urlVariable: 'SHEETS_QUEUE_URL',
    deadLetterUrlVariable: 'SHEETS_DEAD_LETTER_QUEUE_URL',
    visibilityTimeoutSeconds: 360,
    // As the webhooks queue: the worker numbers attempts from the delivery log.
    maxReceiveCount: (settings) =>
      settings.webhookRetryDelaysSeconds.length + 1 + WEBHOOK_LOST_RECEIVE_SLACK,
    fifo: true,
  },
  emails: {
    name: 'emails',
    urlVariable: 'EMAIL_QUEUE_URL',
    deadLetterUrlVariable: 'EMAIL_DEAD_LETTER_QUEUE_URL',
    visibilityTimeoutSeconds: 360,
    maxReceiveCount: () => 5,
  },
  /**
   * Sign-in emails and failed verifies to record: the routes answer alike
   * for members and strangers; the worker tells them apart.
   */
  signIns: {
    name: 'signIns',
    urlVariable: 'SIGN_IN_QUEUE_URL',
    deadLetterUrlVariable: 'SIGN_IN_DEAD_LETTER_QUEUE_URL',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: () => 3,
  },
  /**
   * What SES says became of each sent email (its configuration set's events
   * through EventBridge; locally the SES emulator's front sends them).
   */
  emailEvents: {
    name: 'emailEvents',
    urlVariable: 'EMAIL_EVENT_QUEUE_URL',
    deadLetterUrlVariable: 'EMAIL_EVENT_DEAD_LETTER_QUEUE_URL',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: () => 5,
  },
  /**
   * The records of the table stream each dispatched worker wants
   * (lambdas/workers.ts `dispatched`), handed on by the stream dispatcher:
   * FIFO, grouped by the item's partition key, so one item's changes arrive
   * in the stream's order (a newer retentionDays is never applied before an
   * older one), deduplicated by the stream record's eventID (a retried
   * dispatch within 5 minutes is dropped). Receives as the stream's tries.
   */
  formPurges: {
    name: 'formPurges',
    urlVariable: 'FORM_PURGE_QUEUE_URL',
    deadLetterUrlVariable: 'FORM_PURGE_DEAD_LETTER_QUEUE_URL',
    // 6 × the purger's 900 s.
    visibilityTimeoutSeconds: 5400,
    maxReceiveCount: () => 10,
    fifo: true,
  },
  spamPurges: {
    name: 'spamPurges',
    urlVariable: 'SPAM_PURGE_QUEUE_URL',
    deadLetterUrlVariable: 'SPAM_PURGE_DEAD_LETTER_QUEUE_URL',
    visibilityTimeoutSeconds: 720,
    maxReceiveCount: () => 5,
    fifo: true,
  },
  /** Forms that stored a pending post: their expired unconfirmed ones go (docs/submit.md#confirm-by-email). */
  pendingPurges: {
    name: 'pendingPurges',
    urlVariable: 'PENDING_PURGE_QUEUE_URL',
    deadLetterUrlVariable: 'PENDING_PURGE_DEAD_LETTER_QUEUE_URL',
    visibilityTimeoutSeconds: 720,
    maxReceiveCount: () => 5,
    fifo: true,
  },
  retentionRuns: {
    name: 'retentionRuns',
    urlVariable: 'RETENTION_RUN_QUEUE_URL',
    deadLetterUrlVariable: 'RETENTION_RUN_DEAD_LETTER_QUEUE_URL',
    visibilityTimeoutSeconds: 720,
    maxReceiveCount: () => 5,
    fifo: true,
  },
  /**
   * What GuardDuty Malware Protection says of each uploaded file (its scan
   * result events, through an EventBridge rule; locally the scanner emulator
   * sends them), the plan's own trouble, and the stream dispatcher's checks
   * that a submission's files got their verdicts in time
   * (docs/uploads-and-pages.md#malware-scanning). Only where files are scanned.
   */
  scanResults: {
    name: 'scanResults',
    urlVariable: 'SCAN_RESULT_QUEUE_URL',
    deadLetterUrlVariable: 'SCAN_RESULT_DEAD_LETTER_QUEUE_URL',
    visibilityTimeoutSeconds: 180,
    // A late check waits twice (two message timers of up to 15 minutes each).
    maxReceiveCount: () => 5,
    deployedWhen: (settings) => settings.malwareScanning !== 'off',
  },
  /**
   * A replay of the stream's work for a time range (docs/operations.md#replaying-the-stream):
   * each message names up to 25 submissions of one form, sent by the admin
   * command; the replayer reads them and runs the dispatcher's code on each.
   */
  replays: {
    name: 'replays',
    urlVariable: 'REPLAY_QUEUE_URL',
    deadLetterUrlVariable: 'REPLAY_DEAD_LETTER_QUEUE_URL',
    visibilityTimeoutSeconds: 360,
    maxReceiveCount: () => 5,
  },
} as const satisfies Record<string, QueueDefinition>;
