import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { visitorNetwork } from '#domain/ip-ranges.ts';
import type { RateWindow } from '#domain/rate-limit.ts';
import { documents } from './client.ts';
import { rateWindowKey } from './keys.ts';

/** The management API's limit on one API key (by its public key id). */
export function managementKeyScope(keyId: string): string {
  return `key#${keyId}`;
}

/** The submit endpoint's limit on every post to one form. */
export function submitFormScope(formId: string): string {
  return `SUBMIT#FORM#${formId}`;
}

/**
 * The submit endpoint's per-visitor limit on one form. `ip` is canonical
 * (`canonicalIp`); an IPv4 visitor is counted by address, an IPv6 visitor by
 * the /64 it posts from (`visitorNetwork`), so rotating addresses inside
 * one's own /64 does not reset the count.
 */
export function submitVisitorScope(formId: string, ip: string): string {
  return `SUBMIT#IP#${formId}#${visitorNetwork(ip)}`;
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
