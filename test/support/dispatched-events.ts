import type { DynamoDBRecord, SQSEvent } from 'aws-lambda';

/**
 * The SQS event a dispatched worker gets for these table-stream records, as
 * the stream dispatcher hands them on (lambdas/events/stream-dispatch.ts):
 * one FIFO message each, grouped by the item's partition key. Each message
 * id is the record's sequence number, so a batch item failure names it.
 */
export function dispatchedEvent(records: readonly DynamoDBRecord[]): SQSEvent {
  return {
    Records: records.map((record, i) => {
      const id = record.dynamodb?.SequenceNumber ?? String(i);
      return {
        messageId: id,
        receiptHandle: `receipt-${id}`,
        body: JSON.stringify(record),
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: '0',
          SenderId: 'stream-dispatcher',
          ApproximateFirstReceiveTimestamp: '0',
          MessageGroupId: record.dynamodb?.Keys?.pk?.S ?? 'no-key',
          MessageDeduplicationId: record.eventID ?? id,
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:dispatched.fifo',
        awsRegion: 'us-east-1',
      };
    }),
  };
}
