import { ServiceError } from '#domain/errors.ts';
import type { Caller } from '#http/middleware/caller-auth.ts';

/** The caller's session, for routes about sessions: an API key has none (400 `no_session`). */
export function sessionOf(caller: Caller): { sessionId: string; email: string } {
  if (caller.via !== 'session' || !caller.sessionId || !caller.email) {
    throw new ServiceError('no_session', 'This request is made with an API key, not a session');
  }
  return { sessionId: caller.sessionId, email: caller.email };
}
