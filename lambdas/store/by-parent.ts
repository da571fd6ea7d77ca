import { stripPlumbing } from './keys.ts';
import { INDEXES } from './schema.ts';
import { queryAll } from './table.ts';

/** Every child of a parent on the byParent index, newest first, across pages. */
export async function childrenOf<T>(parentPk: string): Promise<T[]> {
  const items = await queryAll({
    IndexName: INDEXES.byParent.name,
    KeyConditionExpression: 'parentPk = :parent',
    ExpressionAttributeValues: { ':parent': parentPk },
    ScanIndexForward: false,
  });
  return items.map((item) => stripPlumbing<T>(item));
}
