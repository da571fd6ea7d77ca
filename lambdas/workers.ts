import type { Access } from './access.ts';
import type { QUEUES } from './queues.ts';
import { INSERTED_SPAM_PATTERN, REMOVED_FORM_PATTERN } from './store/schema.ts';

/**
 * The event-driven functions, the counterpart of routes.ts: each entry says
 * what triggers it. The CDK stack builds one function and one trigger per
 * entry; the local runner feeds the same triggers (stream poller, queue
 * poller, Scheduler emulator) into the same handler modules.
 */
/** A Lambda event-filter pattern: leaves are arrays of allowed values or rules. */
export type FilterPattern = { readonly [key: string]: FilterPattern | readonly unknown[] };

export type WorkerTrigger =
  | { kind: 'tableStream'; filter: FilterPattern; batchSize: number; maxAttempts: number }
  | { kind: 'queue'; queue: keyof typeof QUEUES; batchSize: number }
  /** Invoked by one-time EventBridge Scheduler schedules created at run time. */
  | { kind: 'schedule' };

export interface Worker {
  name: string;
  handler: string;
  memoryMb: number;
  timeoutSeconds: number;
  access: readonly Access[];
  trigger: WorkerTrigger;
}

// stream-fanout, webhook-worker and email-worker come with the delivery issue.
export const workers: readonly Worker[] = [
  {
    name: 'formCloser',
    handler: 'events/form-closer.ts',
    memoryMb: 256,
    timeoutSeconds: 10,
    access: ['table:write'],
    trigger: { kind: 'schedule' },
  },
  {
    name: 'formPurger',
    handler: 'events/form-purger.ts',
    memoryMb: 512,
    // A form of 100,000 submissions is ~4,000 batch deletes: minutes, not seconds.
    timeoutSeconds: 900,
    access: ['table:read', 'table:write', 'uploads:list', 'uploads:delete'],
    trigger: { kind: 'tableStream', filter: REMOVED_FORM_PATTERN, batchSize: 10, maxAttempts: 10 },
  },
  {
    name: 'spamPurger',
    handler: 'events/spam-purger.ts',
    memoryMb: 256,
    // Usually nothing to delete; a form's first purge after a quiet spell may hold a month of spam.
    timeoutSeconds: 120,
    access: ['table:read', 'table:write', 'uploads:delete'],
    trigger: { kind: 'tableStream', filter: INSERTED_SPAM_PATTERN, batchSize: 25, maxAttempts: 5 },
  },
];
