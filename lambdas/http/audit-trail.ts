import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { AuditAction, AuditActor } from '#domain/audit.ts';
import type { Caller } from '#http/middleware/caller-auth.ts';
import { audit } from './audit-record.ts';

export { audit } from './audit-record.ts';

export function actorOf(caller: Caller): AuditActor {
  return caller.via === 'apiKey'
    ? { kind: 'apiKey', userId: caller.userId, email: null, keyId: caller.keyId ?? null }
    : { kind: 'member', userId: caller.userId, email: caller.email ?? null, keyId: null };
}

/** Records what the caller did in its own team (the common case of `audit`). */
export function auditByCaller(
  caller: Caller,
  event: APIGatewayProxyEvent,
  action: AuditAction,
  target: string | null,
  details?: Record<string, string | number | boolean>,
): Promise<void> {
  return audit({
    teamId: caller.team.teamId,
    actor: actorOf(caller),
    event,
    action,
    target,
    details,
  });
}
