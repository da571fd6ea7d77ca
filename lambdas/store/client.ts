import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sdkLogger } from '#aws/sdk-logger.ts';

// Created once per container. The endpoint comes from AWS_ENDPOINT_URL_DYNAMODB
// when set (the local stack), so there is no local branch here.
export const dynamodb = new DynamoDBClient({ logger: sdkLogger });
export const documents = DynamoDBDocumentClient.from(dynamodb, {
  marshallOptions: { removeUndefinedValues: true },
});
