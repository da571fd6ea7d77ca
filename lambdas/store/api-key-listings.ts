import { ownerOnly } from '#domain/members.ts';
import { type ApiKeyListing, type ApiKeyRecord, getApiKey } from './api-keys.ts';
import {
  API_KEY_PREFIX_SK,
  apiKeyKey,
  apiKeyListingKey,
  memberKey,
  stripPlumbing,
  teamKey,
} from './keys.ts';
import { itemsWithPrefix, type TableTransactItem } from './table.ts';
import { transactUnlessRefused } from './transactions.ts';

/**
 * Keys as the team manages them: created, listed, revoked, and their day's
 * use noted (api-keys.ts reads one key for each request; a request loads
 * this module only when it has a day's use to note).
 */

function listingOf(record: ApiKeyRecord): ApiKeyListing {
  return {
    keyId: record.keyId,
    name: record.name,
    userId: record.userId,
    createdByEmail: record.createdByEmail ?? null,
    createdAt: record.createdAt,
    lastUsedOn: record.lastUsedOn ?? null,
    revokedAt: record.revokedAt ?? null,
  };
}

/** The listing item also says whether the key is an operator's (never shown). */
function listingItemOf(record: ApiKeyRecord): ApiKeyListing & { operator?: boolean } {
  return record.operator ? { ...listingOf(record), operator: true } : listingOf(record);
}

/**
 * Stores a new key (its hash) and its listing together. A member's key is
 * stored only while its creator is an owner of the team (a condition on the
 * member, judged with the writes): 403 `owner_only` when they were removed
 * or demoted meanwhile.
 */
export async function putApiKey(
  record: Omit<ApiKeyRecord, 'createdAt' | 'revokedAt' | 'listed' | 'lastUsedOn'>,
): Promise<ApiKeyRecord> {
  const stored: ApiKeyRecord = { ...record, createdAt: new Date().toISOString(), listed: true };
  const items: TableTransactItem[] = [
    {
      Put: {
        Item: { ...apiKeyKey(record.keyId), entity: 'apiKey', ...stored },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        Item: {
          ...apiKeyListingKey(record.teamId, record.keyId),
          entity: 'apiKeyListing',
          ...listingItemOf(stored),
        },
      },
    },
  ];
  if (!record.operator) {
    items.push({
      ConditionCheck: {
        Key: memberKey(record.teamId, record.userId),
        ConditionExpression: '#role = :owner',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':owner': 'owner' },
      },
    });
  }
  const refused = await transactUnlessRefused(items);
  if (refused?.includes(2)) throw ownerOnly();
  if (refused) throw new Error(`API key ${record.keyId} exists already`);
  return stored;
}

async function listingItems(teamId: string): Promise<(ApiKeyListing & { operator?: boolean })[]> {
  const items = await itemsWithPrefix(teamKey(teamId).pk, API_KEY_PREFIX_SK, { consistent: true });
  return items.map((item) => stripPlumbing<ApiKeyListing & { operator?: boolean }>(item));
}

/** The team's keys, revoked ones included, newest first. */
export async function listApiKeys(teamId: string): Promise<ApiKeyListing[]> {
  return (await listingItems(teamId))
    .map(({ operator: _, ...listing }) => listing)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** The keys a member created that still work (an operator's keys are nobody's). */
export async function liveKeysOf(teamId: string, userId: string): Promise<ApiKeyListing[]> {
  return (await listingItems(teamId))
    .filter((key) => key.userId === userId && !key.revokedAt && !key.operator)
    .map(({ operator: _, ...listing }) => listing);
}

/**
 * The writes that revoke a listed key at `at` (an earlier revocation
 * stands), for a caller's own transaction.
 */
export function revocationItems(
  key: ApiKeyListing,
  teamId: string,
  at: string,
): TableTransactItem[] {
  return [
    {
      Update: {
        Key: apiKeyKey(key.keyId),
        UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at), listed = :true',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at, ':true': true },
      },
    },
    {
      Update: {
        Key: apiKeyListingKey(teamId, key.keyId),
        // A live key's listing holds `revokedAt: null`, which if_not_exists would keep.
        UpdateExpression: 'SET revokedAt = :at',
        ExpressionAttributeValues: { ':at': at },
      },
    },
  ];
}

/** The listing's fields, written whole: a key made before listings gets one. */
function listingUpdate(record: ApiKeyRecord): TableTransactItem {
  const listing = listingItemOf(record);
  const names = Object.keys(listing);
  return {
    Update: {
      Key: apiKeyListingKey(record.teamId, record.keyId),
      UpdateExpression: `SET entity = :entity, ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
      ExpressionAttributeValues: {
        ':entity': 'apiKeyListing',
        ...Object.fromEntries(names.map((n, i) => [`:v${i}`, listing[n as keyof typeof listing]])),
      },
    },
  };
}

/**
 * Records that the key was used today, at most once a day per key (and
 * lists a key made before listings). Nothing when already done today.
 */
export async function noteApiKeyUse(record: ApiKeyRecord, today: string): Promise<void> {
  if (record.lastUsedOn === today && record.listed) return;
  await transactUnlessRefused([
    {
      Update: {
        Key: apiKeyKey(record.keyId),
        UpdateExpression: 'SET lastUsedOn = :today, listed = :true',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: { ':today': today, ':true': true },
      },
    },
    listingUpdate({ ...record, lastUsedOn: today }),
  ]);
}

/**
 * Revokes a key at once; false when no such key exists. Revoking twice
 * keeps the first time.
 */
export async function revokeApiKey(keyId: string, now = new Date()): Promise<boolean> {
  const record = await getApiKey(keyId);
  if (!record) return false;
  const revokedAt = record.revokedAt ?? now.toISOString();
  const refused = await transactUnlessRefused([
    {
      Update: {
        Key: apiKeyKey(keyId),
        UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now), listed = :true',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': revokedAt, ':true': true },
      },
    },
    listingUpdate({ ...record, revokedAt }),
  ]);
  return refused === undefined;
}
