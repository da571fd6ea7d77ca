import { API_KEY_PREFIX_SK, apiKeyKey, apiKeyListingKey, stripPlumbing, teamKey } from './keys.ts';
import { transactUnlessRefused } from './retries.ts';
import { getItem, itemsWithPrefix, type TableTransactItem } from './table.ts';

/**
 * An API key is two items: the key's own (`APIKEY#<keyId>`: its hash and
 * team, read by every request it makes) and its listing in the team's
 * partition (`TEAM#<teamId>` / `APIKEY#<keyId>`: what `GET /v1/team/api-keys`
 * shows). A key made before listings existed gets its listing on its first
 * request (`listed` on the key's item says it happened), at the same time as
 * the day's `lastUsedOn`, the only write a request makes, once a day.
 */

export interface ApiKeyRecord {
  keyId: string;
  /** SHA-256 (hex) of the whole key; the key itself is never stored. */
  hash: string;
  teamId: string;
  /** The member who created it (a team's owner for keys made by the admin CLI). */
  userId: string;
  name: string;
  createdAt: string;
  /** Absent while the key works. */
  revokedAt?: string;
  /** The last day (UTC, YYYY-MM-DD) a request used it. */
  lastUsedOn?: string;
  /** Whether its listing exists. */
  listed?: boolean;
  /** Who created it, as shown in the listing. */
  createdByEmail?: string | null;
}

/** What the team's key list holds of a key: never its hash. */
export interface ApiKeyListing {
  keyId: string;
  name: string;
  userId: string;
  createdByEmail: string | null;
  createdAt: string;
  lastUsedOn: string | null;
  revokedAt: string | null;
}

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

export async function putApiKey(
  record: Omit<ApiKeyRecord, 'createdAt' | 'revokedAt' | 'listed' | 'lastUsedOn'>,
): Promise<ApiKeyRecord> {
  const stored: ApiKeyRecord = { ...record, createdAt: new Date().toISOString(), listed: true };
  await transactUnlessRefused([
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
          ...listingOf(stored),
        },
      },
    },
  ]).then((refused) => {
    if (refused) throw new Error(`API key ${record.keyId} exists already`);
  });
  return stored;
}

export async function getApiKey(keyId: string): Promise<ApiKeyRecord | undefined> {
  // Consistent: a key revoked a moment ago must not work.
  const item = await getItem(apiKeyKey(keyId), { consistent: true });
  return item ? stripPlumbing<ApiKeyRecord>(item) : undefined;
}

/** The team's keys, revoked ones included, newest first. */
export async function listApiKeys(teamId: string): Promise<ApiKeyListing[]> {
  const items = await itemsWithPrefix(teamKey(teamId).pk, API_KEY_PREFIX_SK, { consistent: true });
  return items
    .map((item) => stripPlumbing<ApiKeyListing>(item))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** The listing's fields, written whole: a key made before listings gets one. */
function listingUpdate(record: ApiKeyRecord): TableTransactItem {
  const listing = listingOf(record);
  const names = Object.keys(listing);
  return {
    Update: {
      Key: apiKeyListingKey(record.teamId, record.keyId),
      UpdateExpression: `SET entity = :entity, ${names.map((n, i) => `#n${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
      ExpressionAttributeValues: {
        ':entity': 'apiKeyListing',
        ...Object.fromEntries(names.map((n, i) => [`:v${i}`, listing[n as keyof ApiKeyListing]])),
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
  const used = { ...record, lastUsedOn: today };
  await transactUnlessRefused([
    {
      Update: {
        Key: apiKeyKey(record.keyId),
        UpdateExpression: 'SET lastUsedOn = :today, listed = :true',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: { ':today': today, ':true': true },
      },
    },
    listingUpdate(used),
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
