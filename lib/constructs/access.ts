import type { Access } from '../../lambdas/access.ts';
import { QUEUES } from '../../lambdas/queues.ts';
import type { EmailSending } from './email.ts';
import type { QueueName, Queues } from './queues.ts';
import type { Scheduling } from './scheduling.ts';
import type { ServiceFunction } from './service-function.ts';
import type { Storage } from './storage.ts';

export interface AccessTargets {
  storage: Storage;
  /** Built on first use, so a stack whose routes never schedule has no group or role. */
  scheduling: () => Scheduling;
  /** Each queue is built on first use too (see Queues). */
  queues: Queues;
  email: EmailSending;
}

type Grant = (fn: ServiceFunction, targets: AccessTargets) => void;

/** `queue:<name>:send` for every queue of lambdas/queues.ts. */
const QUEUE_GRANTS = Object.fromEntries(
  (Object.keys(QUEUES) as QueueName[]).map((name): [string, Grant] => [
    `queue:${name}:send`,
    (fn, { queues }) => queues.get(name).grantSend(fn),
  ]),
) as Record<`queue:${QueueName}:send`, Grant>;

/**
 * Every `Access` a route may declare, and the one grant it becomes. Typed as
 * a complete record: a new access kind in lambdas/access.ts fails the type
 * check here until the stack knows how to grant it.
 */
const GRANTS: Record<Access, Grant> = {
  'table:read': (fn, { storage }) => storage.grantTableRead(fn),
  'table:write': (fn, { storage }) => storage.grantTableWrite(fn),
  'uploads:read': (fn, { storage }) => storage.grantUploads(fn, 'read'),
  'uploads:write': (fn, { storage }) => storage.grantUploads(fn, 'write'),
  'uploads:delete': (fn, { storage }) => storage.grantUploads(fn, 'delete'),
  'uploads:list': (fn, { storage }) => storage.grantUploadListing(fn),
  'schedules:manage': (fn, { scheduling }) => scheduling().grantManage(fn),
  'email:send': (fn, { email }) => email.grantSend(fn),
  'rateLimits:count': (fn, { storage }) => storage.grantRateCounting(fn),
  ...QUEUE_GRANTS,
};

export function grantAccess(
  fn: ServiceFunction,
  access: readonly Access[],
  targets: AccessTargets,
): void {
  for (const kind of new Set(access)) GRANTS[kind](fn, targets);
}
