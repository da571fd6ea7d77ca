import { randomUUID } from 'node:crypto';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { GivenUpBatch } from './stream-poller.ts';

/**
 * The record Lambda sends to a DynamoDB event source mapping's on-failure
 * destination when it gives a batch up: where the batch sits in the stream
 * (shard and sequence numbers), never the records themselves. The local
 * pollers send the same to the local stream-failure queue, so the replay
 * drill (docs/operations.md#replaying-the-stream) reads alike on both.
 */
export interface StreamFailureRecord {
  requestContext: {
    requestId: string;
    functionArn: string;
    condition: GivenUpBatch['condition'];
    approximateInvokeCount: number;
  };
  responseContext: { statusCode: number; executedVersion: string; functionError: string };
  version: '1.0';
  timestamp: string;
  DDBStreamBatchInfo: {
    shardId: string;
    startSequenceNumber: string;
    endSequenceNumber: string;
    approximateArrivalOfFirstRecord: string;
    approximateArrivalOfLastRecord: string;
    batchSize: number;
    streamArn: string;
  };
}

export function streamFailureRecord(
  records: DynamoDBStreamEvent['Records'],
  batch: GivenUpBatch,
  functionArn: string,
  streamArn: string,
  now: Date,
): StreamFailureRecord {
  const at = (seconds: number | undefined) =>
    new Date((seconds ?? now.getTime() / 1000) * 1000).toISOString();
  const first = records[0]?.dynamodb;
  const last = records.at(-1)?.dynamodb;
  return {
    requestContext: {
      requestId: randomUUID(),
      functionArn,
      condition: batch.condition,
      approximateInvokeCount: batch.attempts,
    },
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    version: '1.0',
    timestamp: now.toISOString(),
    DDBStreamBatchInfo: {
      shardId: batch.shardId,
      startSequenceNumber: first?.SequenceNumber ?? '',
      endSequenceNumber: last?.SequenceNumber ?? '',
      approximateArrivalOfFirstRecord: at(first?.ApproximateCreationDateTime),
      approximateArrivalOfLastRecord: at(last?.ApproximateCreationDateTime),
      batchSize: records.length,
      streamArn,
    },
  };
}
