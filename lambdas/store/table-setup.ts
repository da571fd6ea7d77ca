import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { dynamodb } from './client.ts';
import { INDEXES, keyAttributes, STREAM_VIEW, TABLE_KEYS, TTL_ATTRIBUTE } from './schema.ts';

/** The table's definition as a CreateTable request, built from schema.ts. */
export function createTableInput(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keyAttributes().map((name) => ({
      AttributeName: name,
      AttributeType: 'S',
    })),
    KeySchema: [
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: Object.values(INDEXES).map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: {
        ProjectionType: index.projection,
        NonKeyAttributes: 'include' in index ? [...index.include] : undefined,
      },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: STREAM_VIEW },
  };
}

/** Creates the table when missing (the local stack); returns its stream ARN. */
export async function ensureTable(tableName: string): Promise<string> {
  try {
    await dynamodb.send(new CreateTableCommand(createTableInput(tableName)));
    await dynamodb.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: tableName }));
  if (!Table?.LatestStreamArn) throw new Error(`table ${tableName} has no stream`);
  await addMissingIndexes(tableName, Table.GlobalSecondaryIndexes ?? []);
  return Table.LatestStreamArn;
}

/**
 * A table kept from an earlier run (`npm run dev --state-dir`) gets the
 * indexes declared since (the `pending` folder's `subPending`), one an
 * update as DynamoDB allows; the deployed table gets them from CloudFormation.
 */
async function addMissingIndexes(
  tableName: string,
  existing: readonly { IndexName?: string }[],
): Promise<void> {
  const have = new Set(existing.map((index) => index.IndexName));
  const wanted = createTableInput(tableName);
  for (const index of wanted.GlobalSecondaryIndexes ?? []) {
    if (have.has(index.IndexName)) continue;
    await dynamodb.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: wanted.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
  }
}
