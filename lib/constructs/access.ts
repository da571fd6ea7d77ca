import type { Access } from '#access';
import { QUEUES } from '#queues';
import type { EmailSending } from './email.ts';
import type { GoogleServiceAccount } from './google-service-account.ts';
import type { KeyedHashSecret } from './keyed-hash-secret.ts';
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
  /** Built on first use, so a stack whose functions hash nothing has no secret. */
  keyedHashSecret: () => KeyedHashSecret;
  /** The Google key's secret as the deployer named it (none: nothing granted). */
  googleServiceAccount: GoogleServiceAccount;
}

type Grant = (fn: ServiceFunction, targets: AccessTargets) => void;

/**
 * `queue:<name>:send` and `queue:<name>:deadLetter` for every queue of
 * lambdas/queues.ts; nothing for a queue this deployment does not have
 * (`deployedWhen`): the function then has neither the URL nor the right,
 * and does not send (scanning off: no file is ever pending).
 */
const QUEUE_GRANTS = Object.fromEntries(
  (Object.keys(QUEUES) as QueueName[]).flatMap((name): [string, Grant][] => [
    [
      `queue:${name}:send`,
      (fn, { queues }) => queues.deployed(name) && queues.get(name).grantSend(fn),
    ],
    [
      `queue:${name}:deadLetter`,
      (fn, { queues }) => queues.deployed(name) && queues.get(name).grantDeadLetterSend(fn),
    ],
  ]),
) as Record<`queue:${QueueName}:${'send' | 'deadLetter'}`, Grant>;

/**
 * The one least-privilege grant each access kind of lambdas/access.ts
 * becomes: a new kind is one line there and one entry here (a missing or an
 * extra entry does not type-check).
 */
const GRANTS = {
  'table:read': (fn, { storage }) => storage.grantTableRead(fn),
  'table:write': (fn, { storage }) => storage.grantTableWrite(fn),
  'uploads:read': (fn, { storage }) => storage.grantUploads(fn, 'read'),
  'uploads:write': (fn, { storage }) => storage.grantUploads(fn, 'write'),
  'uploads:delete': (fn, { storage }) => storage.grantUploads(fn, 'delete'),
  /** Sign presigned POSTs for pending direct uploads: PutObject on `pending/*` only. */
  'uploads:signPending': (fn, { storage }) => storage.grantPendingUploads(fn, 'sign'),
  /** Check and move pending direct uploads: Get (Head, ranged GET, copy source) and Delete on `pending/*`. */
  'uploads:claimPending': (fn, { storage }) => storage.grantPendingUploads(fn, 'claim'),
  /** The bucket's name only, no permission: the hosted page names its origin in the CSP. */
  'uploads:postTarget': (fn, { storage }) => storage.nameUploadsBucket(fn),
  /** List object keys under a prefix (ListBucket on the uploads bucket). */
  'uploads:list': (fn, { storage }) => storage.grantUploadListing(fn),
  /** Create or move schedules in the stack's group, passing the scheduler's role. */
  'schedules:manage': (fn, { scheduling }) => scheduling().grantManage(fn),
  /** Delete schedules in the stack's group only: no create, no PassRole. */
  'schedules:cancel': (fn, { scheduling }) => scheduling().grantCancel(fn),
  /** Send email through SES v2 as the deployment's sender identity (ses:SendEmail on it only). */
  'email:send': (fn, { email }) => email.grantSend(fn),
  /** Make the teams' SES tenants and send as them (tenant actions on tenants of the account only). */
  'email:tenants': (fn, { email }) => email.grantTenants(fn),
  /** Remove an address from a team tenant's SES suppression list (DeleteSuppressedDestination on the teams' tenants only). */
  'email:liftSuppressions': (fn, { email }) => email.grantSuppressionLifts(fn),
  /** Count requests in rate-limit windows: UpdateItem on `RATE#` items only. */
  'rateLimits:count': (fn, { storage }) => storage.grantRateCounting(fn),
  /** Writes of caller authentication, on `APIKEY#`, `TEAM#` and `MEMBERSHIP#` items only. */
  'callers:record': (fn, { storage }) => storage.grantCallerRecords(fn),
  /** Update items of form partitions: UpdateItem on `FORM#` items only (the form closer). */
  'forms:update': (fn, { storage }) => storage.grantFormUpdates(fn),
  /** Put events of a team's audit trail: PutItem on `TEAM#` items only (the scan-result worker). */
  'audit:record': (fn, { storage }) => storage.grantAuditRecords(fn),
  /**
   * Send to one queue of lambdas/queues.ts (`:send`), or move a message to its
   * dead-letter queue (`:deadLetter`): the URL variable and SendMessage on that
   * queue only.
   */
  /** The keyed-hash secret in the function's environment, resolved by CloudFormation at deploy. */
  'secrets:keyedHash': (fn, { keyedHashSecret }) => keyedHashSecret().grantUse(fn),
  /** The Google service account's address and private key, resolved from the deployer's secret at deploy. */
  'secrets:googleServiceAccount': (fn, { googleServiceAccount }) =>
    googleServiceAccount.grantUse(fn),
  'secrets:googleServiceAccountEmail': (fn, { googleServiceAccount }) =>
    googleServiceAccount.grantAddress(fn),
  ...QUEUE_GRANTS,
} satisfies Record<Access, Grant>;

export type { Access };

export function grantAccess(
  fn: ServiceFunction,
  access: readonly Access[],
  targets: AccessTargets,
): void {
  for (const kind of new Set(access)) GRANTS[kind](fn, targets);
}
