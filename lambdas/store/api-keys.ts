import { apiKeyKey, stripPlumbing } from './keys.ts';
import { updateIf } from './retries.ts';
import { getItem, putNewItem } from './table.ts';

export interface ApiKeyRecord {
  keyId: string;
  /** SHA-256 (hex) of the whole key; the key itself is never stored. */
  hash: string;
  teamId: string;
  userId: string;
  name: string;
  createdAt: string;
  /** Absent while the key works. */
  revokedAt?: string;
}

export async function putApiKey(
  record: Omit<ApiKeyRecord, 'createdAt' | 'revokedAt'>,
): Promise<ApiKeyRecord> {
  const stored: ApiKeyRecord = { ...record, createdAt: new Date().toISOString() };
  await putNewItem({ ...apiKeyKey(record.keyId), entity: 'apiKey', ...stored });
  return stored;
}

export async function getApiKey(keyId: string): Promise<ApiKeyRecord | undefined> {
  const item = await getItem(apiKeyKey(keyId));
  return item ? stripPlumbing<ApiKeyRecord>(item) : undefined;
}

/** Returns false when no such key exists. Revoking twice keeps the first time. */
export async function revokeApiKey(keyId: string): Promise<boolean> {
  return updateIf({
    Key: apiKeyKey(keyId),
    UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':now': new Date().toISOString() },
  });
}
