import { ownerOnly } from '#domain/members.ts';
import type { Caller } from '#http/middleware/caller-auth.ts';

/** Owner-only routes: a member gets 403 `owner_only` (an API key acts with its creator's role now). */
export function requireOwner(caller: Caller): void {
  if (caller.role !== 'owner') throw ownerOnly();
}
