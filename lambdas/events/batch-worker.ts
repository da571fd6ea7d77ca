import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type {
  Context,
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
} from 'aws-lambda';
import { flush } from '#metrics';

/** Handles one stream record; throws when it failed. */
export type RecordHandler = (record: DynamoDBRecord) => Promise<void>;

/**
 * A table-stream worker from a per-record function. `forInvocation` makes
 * that function once per invocation, so it may hold state for the batch.
 * Records are handled one after another; a failed record is reported in
 * `batchItemFailures` (the stream retries from it). When every record of the
 * batch fails, Powertools throws instead, which the stream treats as a
 * failed invocation: retried, bisected, then sent to the on-failure queue.
 * Metrics counted during the invocation are flushed at its end.
 */
export function streamWorker(forInvocation: () => RecordHandler) {
  return async (event: DynamoDBStreamEvent, context?: Context): Promise<DynamoDBBatchResponse> => {
    try {
      // A processor per invocation: it holds the batch's results while it runs.
      return await processPartialResponse(
        event,
        forInvocation(),
        new BatchProcessor(EventType.DynamoDBStreams),
        { context, processInParallel: false },
      );
    } finally {
      flush();
    }
  };
}
