import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { documents } from './client.ts';
import { apiKeyKey, stripPlumbing } from './keys.ts';
import { updateIf } from './retries.ts';

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
  await documents.send(
    new PutCommand({
      TableName: config.tableName,
      Item: { ...apiKeyKey(record.keyId), entity: 'apiKey', ...stored },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return stored;
}

export async function getApiKey(keyId: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await documents.send(
    new GetCommand({ TableName: config.tableName, Key: apiKeyKey(keyId) }),
  );
  return Item ? stripPlumbing<ApiKeyRecord>(Item) : undefined;
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
