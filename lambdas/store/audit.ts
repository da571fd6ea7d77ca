import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { AUDIT_RETENTION_SECONDS, type AuditEvent } from '#domain/audit.ts';
import { documents } from './client.ts';
import { AUDIT_PREFIX, auditKey, stripPlumbing, teamKey } from './keys.ts';
import { putNewItem } from './table.ts';

/** The team's audit trail: one item per event, in the team's partition, kept a year. */

export async function recordAudit(event: AuditEvent): Promise<void> {
  await putNewItem({
    ...auditKey(event.teamId, event.eventId),
    entity: 'audit',
    ...event,
    expiresAt: Math.ceil(Date.parse(event.at) / 1000) + AUDIT_RETENTION_SECONDS,
  });
}

/** Records an event whose id was made earlier (a queued one): a second delivery adds nothing. */
export async function recordAuditOnce(event: AuditEvent): Promise<void> {
  try {
    await recordAudit(event);
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** A page of the trail, newest first; `next` (an event id) continues after its last event. */
export async function listAudit(
  teamId: string,
  options: { limit: number; after?: string },
): Promise<{ events: AuditEvent[]; next: string | null }> {
  const page = await documents.send(
    new QueryCommand({
      TableName: config.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': teamKey(teamId).pk, ':prefix': AUDIT_PREFIX },
      ScanIndexForward: false,
      Limit: options.limit,
      ExclusiveStartKey: options.after ? auditKey(teamId, options.after) : undefined,
    }),
  );
  // Expired events may linger until DynamoDB's TTL sweep gets to them.
  const now = Date.now() / 1000;
  const items = page.Items ?? [];
  const events = items
    .filter((item) => Number(item.expiresAt) > now)
    .map((item) => stripPlumbing<AuditEvent>(item));
  const last = items.at(-1);
  return {
    events,
    next: page.LastEvaluatedKey && last ? String(last.sk).slice(AUDIT_PREFIX.length) : null,
  };
}
