import type { Access } from './access.ts';
import { coveringPatterns, type FilterPattern } from './domain/event-filter.ts';
import type { QUEUES } from './queues.ts';
import {
  CONFIRMED_SUBMISSION_PATTERN,
  INSERTED_PENDING_PATTERN,
  INSERTED_SPAM_PATTERN,
  INSERTED_SUBMISSION_PATTERN,
  REMOVED_FORM_PATTERN,
  RETAINING_FORM_PATTERN,
  SCAN_SETTLED_PATTERN,
  SUBMISSION_CHANGE_PATTERN,
} from './store/schema.ts';

/**
 * The event-driven functions, the counterpart of routes.ts: each entry says
 * what triggers it. The CDK stack builds one function and one trigger per
 * entry; the local runner feeds the same triggers (stream poller, queue
 * poller, Scheduler emulator) into the same handler modules.
 */

/**
 * What a worker's concurrency cap may be sized by: deployer settings, the
 * first read by the functions too (lambdas/settings.ts), the second by the
 * stack alone (lib/settings.ts). The local runner sizes its pollers with the
 * same values (docs/operations.md#bounded-workers).
 */
export interface CapSettings {
  sesSendRatePerSecond: number;
  webhookWorkerMaxConcurrency: number;
}

/**
 * Concurrent invocations an SQS event source may run at most (CloudFormation
 * `ScalingConfig.MaximumConcurrency`, 2 to 1,000): a burst queues up instead
 * of taking the account's concurrency or a downstream service's rate.
 */
export type ConcurrencyCap = number | ((settings: CapSettings) => number);

/** Lambda's bounds for an SQS event source's maximum concurrency. */
export const MIN_QUEUE_CONCURRENCY = 2;
export const MAX_QUEUE_CONCURRENCY = 1000;

export type WorkerTrigger =
  | {
      /** A reader of the table stream; there are two at most (AWS's guidance per shard). */
      kind: 'tableStream';
      /** Lambda event filters, ORed (at most 5, Lambda's default quota). */
      filters: readonly FilterPattern[];
      batchSize: number;
      /** Tries of a batch, the first included; then it goes to the stream-failure queue. */
      maxAttempts: number;
      /** Records older than this are not tried again: they go to the stream-failure queue. */
      maxRecordAgeSeconds: number;
    }
  | {
      kind: 'queue';
      queue: keyof typeof QUEUES;
      batchSize: number;
      maxConcurrency: ConcurrencyCap;
    }
  /**
   * A consumer of the table stream that does not read it: the stream
   * dispatcher hands it each record its `filter` matches, through its own
   * FIFO queue (grouped by the item's partition key, so one item's changes
   * keep the stream's order), with the records' images cut to `attributes`
   * (lambdas/domain/stream-dispatch.ts).
   */
  | {
      kind: 'dispatched';
      filter: FilterPattern;
      queue: keyof typeof QUEUES;
      /** The image attributes the consumer reads (besides the record's keys). */
      attributes: readonly string[];
      batchSize: number;
      maxConcurrency: ConcurrencyCap;
    }
  /** Invoked by one-time EventBridge Scheduler schedules created at run time. */
  | {
      kind: 'schedule';
      /** The environment variable that hands its ARN to functions that manage schedules. */
      targetVariable: string;
    };

/** A cap's value for these settings, within Lambda's bounds. */
export function concurrencyCap(cap: ConcurrencyCap, settings: CapSettings): number {
  const value = typeof cap === 'number' ? cap : cap(settings);
  return Math.min(MAX_QUEUE_CONCURRENCY, Math.max(MIN_QUEUE_CONCURRENCY, Math.floor(value)));
}

/**
 * How old a table-stream record may grow before its reader gives it up to
 * the stream-failure queue: 6 hours, a quarter of the stream's 24-hour
 * retention. A reader stopped or throttled for up to 6 hours loses nothing;
 * a batch given up still has 18 hours in the stream, so the shard pointers
 * the failure queue holds can be read (docs/operations.md#replaying-the-stream).
 */
const STREAM_RECORD_MAX_AGE_SECONDS = 6 * 3600;

/** Lambda stops an email worker that runs longer, mid-send or not. */
const EMAIL_WORKER_TIMEOUT_SECONDS = 60;

/** How long an unsent email's claim holds before a redelivery of its message may take it over. */
// Outlives the worker's timeout (+30 s of clock skew), yet ends before the emails queue redelivers.
export const EMAIL_CLAIM_LEASE_SECONDS = EMAIL_WORKER_TIMEOUT_SECONDS + 30;

/** Emails one invocation of the email worker takes at once. */
export const EMAIL_BATCH_SIZE = 5;

/**
 * The email worker's concurrency cap for an SES sending rate (emails a
 * second, `sesSendRatePerSecond`): batch size × invocations ≤ rate, so
 * 14 a second (SES's default for an account out of the sandbox) gives
 * ⌊14 / 5⌋ = 2 invocations of 5 emails. Lambda's floor is 2: a rate under
 * 10 still runs 2, and the pacing below keeps them under it.
 */
export const emailWorkerConcurrency = (sesSendRatePerSecond: number): number =>
  Math.max(MIN_QUEUE_CONCURRENCY, Math.floor(sesSendRatePerSecond / EMAIL_BATCH_SIZE));

/**
 * The least time one email takes of an email worker's invocation, in
 * milliseconds: each of the `emailWorkerConcurrency` invocations sends at
 * most rate / cap emails a second, so all together stay under the rate even
 * when SES answers in a few milliseconds (14 a second, 2 invocations: an
 * email holds its invocation ≥ 143 ms, a batch of 5 ≥ 714 ms).
 */
export const emailSpacingMs = (sesSendRatePerSecond: number): number =>
  (emailWorkerConcurrency(sesSendRatePerSecond) * 1000) / sesSendRatePerSecond;

/**
 * The webhook worker's default cap (`webhookWorkerMaxConcurrency`): 5
 * invocations of 10 deliveries each, 50 requests at once at most, so a
 * burst of submissions cannot take the account's Lambda concurrency (1,000
 * by default, often 10 in a new account). One slow receiver cannot take
 * those slots either: its deliveries go one at a time while it is slow
 * (docs/delivery.md#a-slow-receiver).
 */
export const WEBHOOK_WORKER_MAX_CONCURRENCY = 5;

export interface Worker {
  name: string;
  handler: string;
  memoryMb: number;
  timeoutSeconds: number;
  access: readonly Access[];
  trigger: WorkerTrigger;
}

/** The two workers that send email: they read and mark the table, and send as the sender identity. */
const mailerDefaults = {
  memoryMb: 256,
  access: ['table:read', 'table:write', 'email:send'],
} as const satisfies { memoryMb: number; access: readonly Access[] };

/**
 * The stream's consumers that do not read it (docs/architecture.md#workers):
 * the dispatcher hands each its records through its own queue.
 */
const dispatchedWorkers = [
  {
    name: 'formPurger',
    handler: 'events/form-purger.ts',
    memoryMb: 512,
    // A form of 100,000 submissions is ~4,000 batch deletes: minutes, not seconds.
    timeoutSeconds: 900,
    access: ['table:read', 'table:write', 'uploads:list', 'uploads:delete'],
    trigger: {
      kind: 'dispatched',
      filter: REMOVED_FORM_PATTERN,
      queue: 'formPurges',
      attributes: ['id'],
      // One form per invocation: a timeout or a failure never redoes another form's finished purge.
      batchSize: 1,
      maxConcurrency: 2,
    },
  },
  {
    name: 'spamPurger',
    handler: 'events/spam-purger.ts',
    memoryMb: 256,
    // Usually nothing to delete; a form's first purge after a quiet spell may hold a month of spam.
    timeoutSeconds: 120,
    access: ['table:read', 'table:write', 'uploads:delete'],
    trigger: {
      kind: 'dispatched',
      filter: INSERTED_SPAM_PATTERN,
      queue: 'spamPurges',
      attributes: ['formId'],
      // A FIFO event source takes at most 10 messages a batch.
      batchSize: 10,
      maxConcurrency: 2,
    },
  },
  {
    // Deletes a form's submissions still unconfirmed past their link (docs/submit.md#confirm-by-email),
    // each counted in the summary's notConfirmed, whenever the form stores a pending post or its
    // pending sweep comes due; then moves that sweep to the oldest waiting post's expiry.
    name: 'pendingPurger',
    handler: 'events/pending-purger.ts',
    memoryMb: 256,
    timeoutSeconds: 120,
    access: ['table:read', 'table:write', 'uploads:delete', 'schedules:manage'],
    trigger: {
      kind: 'dispatched',
      filter: INSERTED_PENDING_PATTERN,
      queue: 'pendingPurges',
      attributes: ['formId'],
      batchSize: 10,
      maxConcurrency: 2,
    },
  },
  {
    // The same purge when a form's retentionDays is set or changed, or its sweep comes due;
    // then it schedules the form's next sweep.
    name: 'retentionApplier',
    handler: 'events/retention-applier.ts',
    memoryMb: 256,
    timeoutSeconds: 120,
    access: ['table:read', 'table:write', 'uploads:delete', 'schedules:manage'],
    trigger: {
      kind: 'dispatched',
      filter: RETAINING_FORM_PATTERN,
      queue: 'retentionRuns',
      attributes: ['id', 'retentionDays'],
      batchSize: 10,
      maxConcurrency: 2,
    },
  },
] as const satisfies readonly Worker[];

/**
 * What the stream dispatcher may do, and the replayer that runs the same
 * code for a time range read from the table: write the pending deliveries,
 * send ids to the delivery queues, and hand records to each dispatched
 * worker's queue.
 */
const DISPATCH_ACCESS: readonly Access[] = [
  'table:read',
  'table:write',
  'queue:webhooks:send',
  'queue:emails:send',
  'queue:sheets:send',
  // A submission's files late for their verdict are counted by a check sent when it is stored.
  'queue:scanResults:send',
  ...dispatchedWorkers.map((worker) => `queue:${worker.trigger.queue}:send` as const),
];

export const workers: readonly Worker[] = [
  {
    name: 'formCloser',
    handler: 'events/form-closer.ts',
    memoryMb: 256,
    timeoutSeconds: 10,
    // closeFormOnSchedule: one conditional UpdateItem of the form item.
    access: ['forms:update'],
    // config.formCloserArn reads it.
    trigger: { kind: 'schedule', targetVariable: 'FORM_CLOSER_ARN' },
  },
  ...dispatchedWorkers,
  {
    name: 'retentionSweeper',
    handler: 'events/retention-sweeper.ts',
    memoryMb: 256,
    timeoutSeconds: 10,
    // markRetentionSweep: one conditional UpdateItem of the form item.
    access: ['forms:update'],
    // config.retentionSweeperArn reads it.
    trigger: { kind: 'schedule', targetVariable: 'RETENTION_SWEEPER_ARN' },
  },
  {
    name: 'pendingSweeper',
    handler: 'events/pending-sweeper.ts',
    memoryMb: 256,
    timeoutSeconds: 10,
    // Hands the form to the pending purger (one message on its queue), which purges and
    // schedules the next sweep: the purges of one form stay one at a time.
    access: ['queue:pendingPurges:send'],
    // config.pendingSweeperArn reads it.
    trigger: { kind: 'schedule', targetVariable: 'PENDING_SWEEPER_ARN' },
  },
  {
    // One of the stream's two readers: announces each inserted submission in process (the
    // delivery fan-out) and hands every record a dispatched worker wants to that worker's queue.
    name: 'streamDispatcher',
    handler: 'events/stream-dispatcher.ts',
    memoryMb: 256,
    timeoutSeconds: 30,
    access: DISPATCH_ACCESS,
    trigger: {
      kind: 'tableStream',
      // Its own (inserted submissions, confirmed ones, files scanned) and each dispatched
      // worker's, the covered ones left out: five, Lambda's quota of filters.
      filters: coveringPatterns([
        INSERTED_SUBMISSION_PATTERN,
        CONFIRMED_SUBMISSION_PATTERN,
        SCAN_SETTLED_PATTERN,
        ...dispatchedWorkers.map((worker) => worker.trigger.filter),
      ]),
      batchSize: 25,
      maxAttempts: 10,
      maxRecordAgeSeconds: STREAM_RECORD_MAX_AGE_SECONDS,
    },
  },
  {
    // The other reader: it takes each record once by its sequence number, in order (the
    // summary's buckets), which a queue between it and the stream would not keep.
    name: 'summaryRollup',
    handler: 'events/summary-rollup.ts',
    memoryMb: 256,
    timeoutSeconds: 30,
    // Reads each form once a batch; adds to its hour buckets (and a waitlist's signups).
    access: ['table:read', 'table:write'],
    trigger: {
      kind: 'tableStream',
      filters: [SUBMISSION_CHANGE_PATTERN],
      batchSize: 100,
      maxAttempts: 10,
      maxRecordAgeSeconds: STREAM_RECORD_MAX_AGE_SECONDS,
    },
  },
  {
    // Replays the stream's work for a time range (npm run admin -- stream replay): reads the
    // range's submissions from the table and runs the dispatcher's code on each, as an INSERT.
    name: 'streamReplayer',
    handler: 'events/stream-replayer.ts',
    memoryMb: 256,
    timeoutSeconds: 60,
    access: DISPATCH_ACCESS,
    trigger: { kind: 'queue', queue: 'replays', batchSize: 1, maxConcurrency: 2 },
  },
  {
    name: 'webhookWorker',
    handler: 'events/webhook-worker.ts',
    memoryMb: 256,
    // A batch's attempts run at once, each at most 10 s, plus their reads and writes.
    timeoutSeconds: 30,
    // Moves a message whose retries are spent to the webhooks DLQ itself (lambdas/queues.ts);
    // puts back, later, a message for a receiver that is slow (docs/delivery.md#a-slow-receiver).
    access: ['table:read', 'table:write', 'queue:webhooks:send', 'queue:webhooks:deadLetter'],
    trigger: {
      kind: 'queue',
      queue: 'webhooks',
      batchSize: 10,
      maxConcurrency: (settings) => settings.webhookWorkerMaxConcurrency,
    },
  },
  {
    // Appends each submission's row to its form's Google sheet (docs/integrations.md#sending-rows).
    name: 'sheetsWorker',
    handler: 'events/sheets-worker.ts',
    memoryMb: 256,
    // Up to five Google calls (a token, row 1, new header cells, the id column, the append), 10 s each.
    timeoutSeconds: 60,
    access: [
      'table:read',
      'table:write',
      'queue:sheets:deadLetter',
      'secrets:googleServiceAccount',
    ],
    // One row a batch: a form's rows go one at a time, in order, and a retry holds only its own.
    // Two at once: Google allows the service account 60 writes a minute.
    trigger: { kind: 'queue', queue: 'sheets', batchSize: 1, maxConcurrency: 2 },
  },
  {
    ...mailerDefaults,
    name: 'emailWorker',
    handler: 'events/email-worker.ts',
    // Sends as each team's SES tenant, made ready on the team's first email.
    // Signs each confirmation link with a key derived from the keyed-hash secret.
    access: [...mailerDefaults.access, 'email:tenants', 'secrets:keyedHash'],
    timeoutSeconds: EMAIL_WORKER_TIMEOUT_SECONDS,
    trigger: {
      kind: 'queue',
      queue: 'emails',
      batchSize: EMAIL_BATCH_SIZE,
      maxConcurrency: (settings) => emailWorkerConcurrency(settings.sesSendRatePerSecond),
    },
  },
  {
    // Records each email's fate from SES's events; suppresses bounced and complaining addresses.
    name: 'emailEventWorker',
    handler: 'events/email-event-worker.ts',
    memoryMb: 256,
    timeoutSeconds: 30,
    access: ['table:read', 'table:write'],
    trigger: { kind: 'queue', queue: 'emailEvents', batchSize: 10, maxConcurrency: 2 },
  },
  {
    // Records each uploaded file's malware scan verdict (docs/uploads-and-pages.md#malware-scanning);
    // built only where files are scanned (its queue's `deployedWhen`).
    name: 'scanResultWorker',
    handler: 'events/scan-result-worker.ts',
    memoryMb: 256,
    timeoutSeconds: 30,
    // The verdict (one conditional UpdateItem of the submission), an infected file's deletion and
    // its audit event; a listing that tells a submission still being stored from a gone one; an
    // unreadable message to the dead-letter queue.
    access: [
      'table:read',
      'forms:update',
      'audit:record',
      'uploads:delete',
      'uploads:list',
      'queue:scanResults:deadLetter',
    ],
    trigger: { kind: 'queue', queue: 'scanResults', batchSize: 10, maxConcurrency: 2 },
  },
  {
    // Finds the address's teams, stores the sign-in's hashes, sends the email;
    // records failed verifies in the audit trail of the address's teams.
    ...mailerDefaults,
    name: 'signInMailer',
    handler: 'events/sign-in-mailer.ts',
    timeoutSeconds: 30,
    // Sign-in emails are few (each address is limited); they share SES's rate with the email worker.
    trigger: { kind: 'queue', queue: 'signIns', batchSize: 10, maxConcurrency: 2 },
  },
];

/** The dispatched workers, in the order the dispatcher hands a record on. */
export const dispatched = workers.flatMap((worker) =>
  worker.trigger.kind === 'dispatched' ? [{ name: worker.name, trigger: worker.trigger }] : [],
);
