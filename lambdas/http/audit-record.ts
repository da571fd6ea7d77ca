import { randomUUIDv7 } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { AuditAction, AuditActor } from '#domain/audit.ts';
import { sourceIpOf } from '#http/request.ts';
import { errorFields, log } from '#log';
import { recordAudit } from '#store/audit.ts';

/**
 * Records one event of a team's audit trail. The action it records has
 * happened already: a failed write is logged (and alarms through the error
 * log), never turned into a failed answer that would invite a retry.
 */
export async function audit(input: {
  teamId: string;
  actor: AuditActor;
  event: APIGatewayProxyEvent;
  action: AuditAction;
  target?: string | null;
  details?: Record<string, string | number | boolean>;
}): Promise<void> {
  const at = new Date().toISOString();
  try {
    await recordAudit({
      eventId: randomUUIDv7(),
      teamId: input.teamId,
      action: input.action,
      actor: input.actor,
      target: input.target ?? null,
      details: input.details ?? {},
      ip: sourceIpOf(input.event),
      at,
    });
  } catch (error) {
    log.error('audit event not recorded', {
      teamId: input.teamId,
      action: input.action,
      ...errorFields(error),
    });
  }
}
