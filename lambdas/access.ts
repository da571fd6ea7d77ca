import type { QUEUES } from './queues.ts';

/**
 * What a function may touch, declared by each entry of routes.ts and
 * workers.ts; the stack turns each into one least-privilege grant
 * (lib/constructs/access.ts), and a new kind fails the type check there until
 * it knows how.
 */
export type Access =
  | 'table:read'
  | 'table:write'
  | 'uploads:read'
  | 'uploads:write'
  | 'uploads:delete'
  /** List object keys under a prefix (ListBucket on the uploads bucket). */
  | 'uploads:list'
  | 'schedules:manage'
  /** Send email through SES v2 as the deployment's sender identity (ses:SendEmail on it only). */
  | 'email:send'
  /** Count requests in rate-limit windows: UpdateItem on `RATE#` items only. */
  | 'rateLimits:count'
  /** Send to one queue of lambdas/queues.ts: its URL variable and SendMessage on it only. */
  | `queue:${keyof typeof QUEUES}:send`;
