import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { documents } from './client.ts';
import { stripPlumbing } from './keys.ts';
import { INDEXES } from './schema.ts';

/** Every child of a parent on the byParent index, newest first, across pages. */
export async function childrenOf<T>(parentPk: string): Promise<T[]> {
  const children: T[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({
        TableName: config.tableName,
        IndexName: INDEXES.byParent.name,
        KeyConditionExpression: 'parentPk = :parent',
        ExpressionAttributeValues: { ':parent': parentPk },
        ScanIndexForward: false,
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of page.Items ?? []) children.push(stripPlumbing<T>(item));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return children;
}
