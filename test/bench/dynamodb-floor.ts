/**
 * The bundle floor of issue 14: a bare DynamoDB document client sending one
 * command. `npm run bench:bundles` bundles it with the stack's flags and
 * gives every function's size as a multiple of it.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { id: string }) => {
  const out = await client.send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: event.id } }),
  );
  return out.Item;
};
