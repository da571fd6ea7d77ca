import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import type { RateWindow } from '#domain/rate-limit.ts';
import { documents } from './client.ts';
import { rateWindowKey } from './keys.ts';

/**
 * Auto-replies to one address: visitors choose the address, so without a
 * limit a form's auto-reply could be aimed at anyone, again and again. The
 * address is hashed: no address is kept in a key.
 */
export function autoReplyRecipientScope(address: string): string {
  return `AUTOREPLY#${createHash('sha256').update(address.toLowerCase()).digest('hex')}`;
}

/** The management API's limit on one API key (by its public key id). */
export function managementKeyScope(keyId: string): string {
  return `key#${keyId}`;
}

/**
 * Counts one request in `scope`'s window and returns the count so far. The
 * item expires (TTL) a minute after its window ends.
 */
export async function countRequest(scope: string, window: RateWindow): Promise<number> {
  const { Attributes } = await documents.send(
    new UpdateCommand({
      TableName: config.tableName,
      Key: rateWindowKey(scope, window.start),
      UpdateExpression: 'ADD hits :one SET expiresAt = if_not_exists(expiresAt, :expires)',
      ExpressionAttributeValues: { ':one': 1, ':expires': Math.ceil(window.end / 1000) + 60 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.hits ?? 1);
}
