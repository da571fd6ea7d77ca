import type { Access } from './access.ts';
import type { QUEUES } from './queues.ts';
import {
  INSERTED_SPAM_PATTERN,
  INSERTED_SUBMISSION_PATTERN,
  REMOVED_FORM_PATTERN,
  RETAINING_FORM_PATTERN,
  SUBMISSION_CHANGE_PATTERN,
} from './store/schema.ts';

/**
 * The event-driven functions, the counterpart of routes.ts: each entry says
 * what triggers it. The CDK stack builds one function and one trigger per
 * entry; the local runner feeds the same triggers (stream poller, queue
 * poller, Scheduler emulator) into the same handler modules.
 */
/** A Lambda event-filter pattern: leaves are arrays of allowed values or rules. */
export type FilterPattern = { readonly [key: string]: FilterPattern | readonly unknown[] };

export type WorkerTrigger =
  | {
      kind: 'tableStream';
      filter: FilterPattern;
      batchSize: number;
      /** Tries of a batch, the first included; then it goes to the stream-failure queue. */
      maxAttempts: number;
      /** Records older than this are not tried again: they go to the stream-failure queue. */
      maxRecordAgeSeconds: number;
    }
  | { kind: 'queue'; queue: keyof typeof QUEUES; batchSize: number }
  /** Invoked by one-time EventBridge Scheduler schedules created at run time. */
  | {
      kind: 'schedule';
      /** The environment variable that hands its ARN to functions that manage schedules. */
      targetVariable: string;
    };

const DAY = 86_400;

/** Lambda stops an email worker that runs longer, mid-send or not. */
const EMAIL_WORKER_TIMEOUT_SECONDS = 60;

/** How long an unsent email's claim holds before a redelivery of its message may take it over. */
// Outlives the worker's timeout (+30 s of clock skew), yet ends before the emails queue redelivers.
export const EMAIL_CLAIM_LEASE_SECONDS = EMAIL_WORKER_TIMEOUT_SECONDS + 30;

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
  {
    name: 'formPurger',
    handler: 'events/form-purger.ts',
    memoryMb: 512,
    // A form of 100,000 submissions is ~4,000 batch deletes: minutes, not seconds.
    timeoutSeconds: 900,
    access: ['table:read', 'table:write', 'uploads:list', 'uploads:delete'],
    trigger: {
      kind: 'tableStream',
      filter: REMOVED_FORM_PATTERN,
      // One form per invocation: a timeout or a failure never redoes another form's finished purge.
      batchSize: 1,
      maxAttempts: 10,
      maxRecordAgeSeconds: DAY,
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
      kind: 'tableStream',
      filter: INSERTED_SPAM_PATTERN,
      batchSize: 25,
      maxAttempts: 5,
      maxRecordAgeSeconds: DAY,
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
      kind: 'tableStream',
      filter: RETAINING_FORM_PATTERN,
      batchSize: 25,
      maxAttempts: 5,
      maxRecordAgeSeconds: DAY,
    },
  },
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
    name: 'streamFanout',
    handler: 'events/stream-fanout.ts',
    memoryMb: 256,
    timeoutSeconds: 30,
    // Writes the pending delivery, sends ids to the delivery queues.
    access: [
      'table:read',
      'table:write',
      'queue:webhooks:send',
      'queue:emails:send',
      'queue:sheets:send',
    ],
    trigger: {
      kind: 'tableStream',
      filter: INSERTED_SUBMISSION_PATTERN,
      batchSize: 25,
      maxAttempts: 10,
      maxRecordAgeSeconds: DAY,
    },
  },
  {
    name: 'summaryRollup',
    handler: 'events/summary-rollup.ts',
    memoryMb: 256,
    timeoutSeconds: 30,
    // Reads each form once a batch; adds to its hour buckets (and a waitlist's signups).
    access: ['table:read', 'table:write'],
    trigger: {
      kind: 'tableStream',
      filter: SUBMISSION_CHANGE_PATTERN,
      batchSize: 100,
      maxAttempts: 10,
      maxRecordAgeSeconds: DAY,
    },
  },
  {
    name: 'webhookWorker',
    handler: 'events/webhook-worker.ts',
    memoryMb: 256,
    // A batch's attempts run at once, each at most 10 s, plus their reads and writes.
    timeoutSeconds: 30,
    // Moves a message whose retries are spent to the webhooks DLQ itself (lambdas/queues.ts).
    access: ['table:read', 'table:write', 'queue:webhooks:deadLetter'],
    trigger: { kind: 'queue', queue: 'webhooks', batchSize: 10 },
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
    trigger: { kind: 'queue', queue: 'sheets', batchSize: 1 },
  },
  {
    ...mailerDefaults,
    name: 'emailWorker',
    handler: 'events/email-worker.ts',
    // Sends as each team's SES tenant, made ready on the team's first email.
    access: [...mailerDefaults.access, 'email:tenants'],
    timeoutSeconds: EMAIL_WORKER_TIMEOUT_SECONDS,
    trigger: { kind: 'queue', queue: 'emails', batchSize: 10 },
  },
  {
    // Records each email's fate from SES's events; suppresses bounced and complaining addresses.
    name: 'emailEventWorker',
    handler: 'events/email-event-worker.ts',
    memoryMb: 256,
    timeoutSeconds: 30,
    access: ['table:read', 'table:write'],
    trigger: { kind: 'queue', queue: 'emailEvents', batchSize: 10 },
  },
  {
    // Finds the address's teams, stores the sign-in's hashes, sends the email;
    // records failed verifies in the audit trail of the address's teams.
    ...mailerDefaults,
    name: 'signInMailer',
    handler: 'events/sign-in-mailer.ts',
    timeoutSeconds: 30,
    trigger: { kind: 'queue', queue: 'signIns', batchSize: 10 },
  },
];
