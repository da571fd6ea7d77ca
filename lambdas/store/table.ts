import {
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { config } from '#config';
import { documents } from './client.ts';

/**
 * The service's one table, spoken to without naming it at every call: an
 * item by key, a new item, a transaction whose items give only their keys
 * and expressions.
 */

type Key = Record<string, unknown>;
type Item = Record<string, unknown>;

/**
 * The item at `key`, or undefined. `consistent` for a reader that must see
 * the latest write (a worker reading what the write that woke it stored).
 */
export async function getItem(
  key: Key,
  options: { consistent?: boolean } = {},
): Promise<Item | undefined> {
  const { Item } = await documents.send(
    new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: options.consistent }),
  );
  return Item;
}

/** Every item a Query on the table (or one of its indexes) matches, across pages. */
export async function queryAll(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({ ...input, TableName: config.tableName, ExclusiveStartKey: cursor }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}

/** The pages of a Query on the table, one after another: for a reader that need not hold them all. */
export async function* queryPages(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): AsyncGenerator<Item[]> {
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({ ...input, TableName: config.tableName, ExclusiveStartKey: cursor }),
    );
    yield page.Items ?? [];
    cursor = page.LastEvaluatedKey;
  } while (cursor);
}

/** Every item of partition `pk` whose sort key starts with `prefix`, across pages. */
export function itemsWithPrefix(
  pk: string,
  prefix: string,
  options: { consistent?: boolean } = {},
): Promise<Item[]> {
  return queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
    ConsistentRead: options.consistent,
  });
}

/** Puts an item that must not exist yet (ConditionalCheckFailed when it does). */
export async function putNewItem(item: Item): Promise<void> {
  await documents.send(
    new PutCommand({
      TableName: config.tableName,
      Item: item,
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A transaction item of the table: Put, Update, Delete or ConditionCheck without `TableName`. */
export type TableTransactItem = {
  [Op in keyof TransactItem]?: Omit<NonNullable<TransactItem[Op]>, 'TableName'>;
};

/** TransactWriteItems on the table; every item gets the table's name. */
export async function transact(items: readonly TableTransactItem[]): Promise<void> {
  const TableName = config.tableName;
  await documents.send(
    new TransactWriteCommand({
      TransactItems: items.map((item) =>
        Object.fromEntries(
          Object.entries(item).map(([op, request]) => [op, { TableName, ...request }]),
        ),
      ),
    }),
  );
}
