import type { QueueName } from './queues.ts';

/**
 * What a function may touch, declared by each entry of routes.ts and
 * workers.ts: the kinds of access the stack can grant. The stack's grant
 * table (lib/constructs/access.ts) satisfies `Record<Access, Grant>`, so a
 * kind declared here without a grant there does not type-check, and neither
 * does a grant for a kind not declared. Types only: nothing reaches a bundle.
 */
export type Access =
  | 'table:read'
  | 'table:write'
  | 'uploads:read'
  | 'uploads:write'
  | 'uploads:delete'
  /** Sign presigned POSTs for pending direct uploads: PutObject on `pending/*` only. */
  | 'uploads:signPending'
  /** Check and move pending direct uploads: Get (Head, ranged GET, copy source) and Delete on `pending/*`. */
  | 'uploads:claimPending'
  /** The bucket's name only, no permission: the hosted page names its origin in the CSP. */
  | 'uploads:postTarget'
  /** List object keys under a prefix (ListBucket on the uploads bucket). */
  | 'uploads:list'
  /** Create or move schedules in the stack's group, passing the scheduler's role. */
  | 'schedules:manage'
  /** Delete schedules in the stack's group only: no create, no PassRole. */
  | 'schedules:cancel'
  /** Send email through SES v2 as the deployment's sender identity. */
  | 'email:send'
  /** Create the teams' SES tenants, associate the identity and configuration set, set their reputation policy. */
  | 'email:tenants'
  /** Take an address off a team tenant's SES suppression list (docs/delivery.md#suppressed-addresses). */
  | 'email:liftSuppressions'
  /**
   * What authenticating a caller writes (docs/architecture.md#permissions-and-bundles):
   * an API key's day of use and its listing, a session's last use, an orphan key's
   * revocation with its audit event, an old team's owner membership. Items of
   * `APIKEY#`, `TEAM#` and `MEMBERSHIP#` partitions only.
   */
  | 'callers:record'
  /** Count requests in rate-limit windows: UpdateItem on `RATE#` items only. */
  | 'rateLimits:count'
  /** Update items of form partitions: UpdateItem on `FORM#` items only (the form closer). */
  | 'forms:update'
  /** Record events of a team's audit trail without an acting caller: PutItem on `TEAM#` items only. */
  | 'audit:record'
  /** The deployment's keyed-hash secret in `KEYED_HASH_SECRET` (resolved at deploy; no IAM action). */
  | 'secrets:keyedHash'
  /** The Google service account's address and private key, when the deployment names a key (resolved at deploy; no IAM action). */
  | 'secrets:googleServiceAccount'
  /** The Google service account's address alone (shown to owners, to share a sheet with). */
  | 'secrets:googleServiceAccountEmail'
  /** Send to one queue of queues.ts, or move a message to its dead-letter queue. */
  | `queue:${QueueName}:${'send' | 'deadLetter'}`;
