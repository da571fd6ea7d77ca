import {
  ConditionalCheckFailedException,
  ProvisionedThroughputExceededException,
  ThrottlingException,
} from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { shareOf } from '#domain/counter-shares.ts';
import { ServiceError } from '#domain/errors.ts';
import { probeOrder, type RateWindow, rateShards } from '#domain/rate-limit.ts';
import { documents } from './client.ts';
import { rateWindowKey } from './keys.ts';

/**
 * Auto-replies and confirmation emails to one mailbox, by its keyed hash
 * (`mailboxHash` of `mailboxOf` the address): visitors choose the address,
 * so without a limit a form's emails could be aimed at anyone, again and
 * again. No address, nor an unkeyed hash of it, is kept in a key.
 */
export function autoReplyRecipientScope(mailboxHash: string): string {
  return `AUTOREPLY#${mailboxHash}`;
}

/** Auto-replies one form sends, whoever they go to (its `autoreplyHourlyLimit`). */
export function autoReplyFormScope(formId: string): string {
  return `AUTOREPLY-FORM#${formId}`;
}

/**
 * Confirmation emails of one form to one mailbox (docs/delivery.md#confirmation-emails),
 * counted over a day, by the mailbox's keyed hash as the auto-reply's.
 */
export function confirmationScope(formId: string, mailboxHash: string): string {
  return `CONFIRM#${formId}#${mailboxHash}`;
}

/**
 * Takes `scope`'s mark for `seconds` from `now` (a rolling window of one,
 * not a calendar one): false when another holds it and has not expired.
 * DynamoDB removes expired items late (DynamoDB Local never): an expired
 * mark is free. `giveBack` removes it again.
 */
export async function takeMark(scope: string, now: number, seconds: number): Promise<boolean> {
  try {
    await documents.send(
      new PutCommand({
        TableName: config.tableName,
        // One mark, not a window: the window start is 0.
        Item: {
          ...rateWindowKey(scope, 0),
          entity: 'rateMark',
          expiresAt: Math.ceil(now / 1000) + seconds,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAt <= :now',
        ExpressionAttributeValues: { ':now': Math.floor(now / 1000) },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Gives a mark taken by takeMark back (the email it allowed was not sent). */
export async function giveBackMark(scope: string): Promise<void> {
  await documents.send(
    new DeleteCommand({ TableName: config.tableName, Key: rateWindowKey(scope, 0) }),
  );
}

/** The management API's limit on one API key (by its public key id). */
export function managementKeyScope(keyId: string): string {
  return `key#${keyId}`;
}

/** The management API's limit on one signed-in member (all their sessions together). */
export function memberScope(teamId: string, userId: string): string {
  return `member#${teamId}#${userId}`;
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

/** Takes one request back out of `scope`'s window (one that was counted but did not happen). */
export async function uncountRequest(scope: string, window: RateWindow): Promise<void> {
  await documents.send(
    new UpdateCommand({
      TableName: config.tableName,
      Key: rateWindowKey(scope, window.start),
      UpdateExpression: 'ADD hits :minusOne',
      ConditionExpression: 'attribute_exists(hits)',
      ExpressionAttributeValues: { ':minusOne': -1 },
    }),
  );
}

/**
 * Shards seen over their share, per window, in this container. A shard over
 * its share stays over it until its window ends, so a request need not
 * write to it again: once every shard of a window is known full, refusals
 * cost no write, and a flood past the limit does not heat the very items
 * the shards spread. Only windows with a full shard get an entry, so a flood
 * of distinct visitors under their limits adds nothing here; entries of past
 * windows are dropped as windows turn.
 */
const knownFull = new Map<string, { end: number; shards: Set<number> }>();

const NONE_FULL: ReadonlySet<number> = new Set();

/** The shards of the window known full here; an entry is made only once one is. */
function fullShardsOf(scope: string, window: RateWindow): ReadonlySet<number> {
  return knownFull.get(`${scope}#${window.start}`)?.shards ?? NONE_FULL;
}

function markFull(scope: string, window: RateWindow, shard: number): void {
  const key = `${scope}#${window.start}`;
  let entry = knownFull.get(key);
  if (!entry) {
    for (const [old, { end }] of knownFull) if (end <= window.start) knownFull.delete(old);
    entry = { end: window.end, shards: new Set() };
    knownFull.set(key, entry);
  }
  entry.shards.add(shard);
}

/** DynamoDB refusing a write for throughput: the item or its partition is over its pace. */
function throttled(error: unknown): boolean {
  return (
    error instanceof ProvisionedThroughputExceededException || error instanceof ThrottlingException
  );
}

/**
 * Counts one request against `limit` requests in `scope`'s window: true when
 * it is within the limit. A window whose limit is high enough to heat one
 * item (`rateShards`) is counted on shards, each admitting its share; a
 * request tries them from a random one and is refused only when every share
 * is used up, so the limit stays exact. A throttled shard is passed over
 * like a full one, and a request that found only throttled shards (and no
 * room) is `503 busy`. At the default limits this is one write to one item.
 */
export async function admitRequest(
  scope: string,
  window: RateWindow,
  limit: number,
  shards = rateShards(limit, (window.end - window.start) / 1000),
): Promise<boolean> {
  const full = fullShardsOf(scope, window);
  let throttledAny = false;
  for (const k of probeOrder(shards)) {
    if (full.has(k)) continue;
    const shardScope = shards <= 1 ? scope : `${scope}#${k}`;
    let hits: number;
    try {
      hits = await countRequest(shardScope, window);
    } catch (error) {
      if (!throttled(error)) throw error;
      throttledAny = true;
      continue;
    }
    // An over-count on a shard already used up takes no room from the others.
    if (hits <= shareOf(limit, shards, k)) return true;
    markFull(scope, window, k);
  }
  // Refused only when every shard is known full; a throttled one might have had room.
  if (throttledAny && fullShardsOf(scope, window).size < shards) {
    throw new ServiceError('busy', 'Too many requests at once; try again', {
      headers: { 'retry-after': '1' },
    });
  }
  return false;
}
