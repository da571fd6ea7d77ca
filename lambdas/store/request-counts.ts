import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { shareOf } from '#domain/counter-shares.ts';
import { probeOrder, type RateWindow, rateShards } from '#domain/rate-limit.ts';
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

/**
 * Counts one request against `limit` requests in `scope`'s window: true when
 * it is within the limit. A window whose limit is high enough to heat one
 * item (`rateShards`) is counted on shards, each admitting its share; a
 * request tries them from a random one and is refused only when every share
 * is used up, so the limit stays exact. At the default limits this is one
 * write to one item, as `countRequest`.
 */
export async function admitRequest(
  scope: string,
  window: RateWindow,
  limit: number,
  shards = rateShards(limit, (window.end - window.start) / 1000),
): Promise<boolean> {
  if (shards <= 1) return (await countRequest(scope, window)) <= limit;
  for (const k of probeOrder(shards)) {
    // An over-count on a shard already used up takes no room from the others.
    if ((await countRequest(`${scope}#${k}`, window)) <= shareOf(limit, shards, k)) return true;
  }
  return false;
}
