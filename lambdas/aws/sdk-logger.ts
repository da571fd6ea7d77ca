import type { SQSClientConfig } from '@aws-sdk/client-sqs';

/**
 * The logger every AWS SDK client of ours is created with. The SDK's default logger does
 * nothing, yet the SDK first builds what it would log for each call: every input and output
 * walked through their schemas, each item of a Query's page included (`logger?.info?.(…)`).
 * A logger without `info` skips that work, and says nothing, as the default did: measured,
 * the client's CPU for Queries of 100 items fell by a quarter (1,129 → 867 ms for 300 Queries
 * and 300 GetItems against DynamoDB Local).
 */
export const sdkLogger = {
  debug: () => {},
  warn: () => {},
  error: () => {},
} as unknown as NonNullable<SQSClientConfig['logger']>;
