import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { documents } from './client.ts';
import { usageKey } from './keys.ts';

/** Submissions counted for the team in `month` (`yyyy-mm`, UTC); deleted ones stay counted. */
export async function monthlyUsage(teamId: string, month: string): Promise<number> {
  const { Item } = await documents.send(
    new GetCommand({ TableName: config.tableName, Key: usageKey(teamId, month) }),
  );
  return Number(Item?.submissions ?? 0);
}
