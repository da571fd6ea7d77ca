import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import type { RateWindow } from '#domain/rate-limit.ts';
import { documents } from './client.ts';
import { rateWindowKey } from './keys.ts';

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
