import {
  BatchProcessor,
  EventType,
  processPartialResponse,
  SqsFifoPartialProcessorAsync,
} from '@aws-lambda-powertools/batch';
import type {
  Context,
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
  SQSBatchResponse,
  SQSEvent,
  SQSRecord,
} from 'aws-lambda';
import { flush } from '#metrics';

/**
 * Workers made from a per-record function. `forInvocation` makes that
 * function once per invocation, so it may hold state for the batch. Records
 * are handled one after another, or all at once with `parallel` where they
 * are independent (deliveries); a record whose function throws is reported
 * in `batchItemFailures` (a stream retries from it, a queue receives it
 * again after its visibility timeout). When every record of a batch fails,
 * Powertools throws instead: a stream then retries, bisects and finally sends
 * the batch to its on-failure queue; a queue receives every message again.
 * Metrics counted during the invocation are flushed at its end.
 */
async function processBatch<Event extends DynamoDBStreamEvent | SQSEvent>(
  event: Event,
  type: (typeof EventType)[keyof typeof EventType],
  handle: (record: never) => Promise<void>,
  context: Context | undefined,
  parallel: boolean,
) {
  try {
    // A processor per invocation: it holds the batch's results while it runs.
    return await processPartialResponse(event, handle, new BatchProcessor(type), {
      context,
      processInParallel: parallel,
    });
  } finally {
    flush();
  }
}

export interface WorkerOptions {
  /** Handle the batch's records at once: only where no record depends on another's outcome. */
  parallel?: boolean;
}

/** A table-stream worker; `forInvocation` also gets the batch's records, in order. */
export function streamWorker(
  forInvocation: (batch: readonly DynamoDBRecord[]) => (record: DynamoDBRecord) => Promise<void>,
  options: WorkerOptions = {},
) {
  return (event: DynamoDBStreamEvent, context?: Context): Promise<DynamoDBBatchResponse> =>
    processBatch(
      event,
      EventType.DynamoDBStreams,
      forInvocation(event.Records),
      context,
      options.parallel ?? false,
    );
}

/** An SQS worker. */
export function queueWorker(
  forInvocation: () => (record: SQSRecord) => Promise<void>,
  options: WorkerOptions = {},
) {
  return (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    processBatch(event, EventType.SQS, forInvocation(), context, options.parallel ?? false);
}

/**
 * A dispatched worker (lambdas/workers.ts `dispatched`): the messages of its
 * FIFO queue are table-stream records the stream dispatcher handed on, their
 * images cut to what it reads, so its per-record function is a stream
 * worker's. `forInvocation` also gets the batch's records, in order, for a
 * worker that acts once per item on its newest record. Records are handled
 * one after another; after one fails, the later ones of its group (the same
 * item) fail without running, so the queue brings them back in the stream's
 * order, while other groups go on (Powertools' FIFO processor with
 * `skipGroupOnError`).
 */
export function dispatchedWorker(
  forInvocation: (batch: readonly DynamoDBRecord[]) => (record: DynamoDBRecord) => Promise<void>,
) {
  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    const records = new Map(
      event.Records.map((message) => [message.messageId, recordOf(message.body)]),
    );
    const handle = forInvocation(
      [...records.values()].filter((record): record is DynamoDBRecord => record !== undefined),
    );
    try {
      return await processPartialResponse(
        event,
        (message: SQSRecord) => {
          const record = records.get(message.messageId);
          if (!record) throw new Error(`message ${message.messageId} is not a stream record`);
          return handle(record);
        },
        new SqsFifoPartialProcessorAsync(),
        { context, skipGroupOnError: true },
      );
    } finally {
      flush();
    }
  };
}

/** The stream record a dispatched message carries, or undefined when it carries none. */
function recordOf(body: string): DynamoDBRecord | undefined {
  try {
    const record = JSON.parse(body) as DynamoDBRecord;
    return typeof record === 'object' && record !== null && record.dynamodb ? record : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A dispatched worker that runs `perForm` once per form of the batch (the
 * form `formIdOf` names; records naming none are skipped), with the form's
 * newest record of the batch: its records come in the stream's order (one
 * FIFO group per form), so two quick changes apply as the second left the
 * form. Every record of that form shares the outcome, so when it fails each
 * of them is a failed record.
 */
export function oncePerForm(
  formIdOf: (record: DynamoDBRecord) => string | undefined,
  perForm: (formId: string, record: DynamoDBRecord, now: Date) => Promise<void>,
) {
  return dispatchedWorker((batch) => {
    const now = new Date();
    const newest = new Map<string, DynamoDBRecord>();
    for (const record of batch) {
      const formId = formIdOf(record);
      if (formId) newest.set(formId, record);
    }
    const runs = new Map<string, Promise<void>>();
    return async (record) => {
      const formId = formIdOf(record);
      if (!formId) return;
      let run = runs.get(formId);
      if (!run) {
        run = perForm(formId, newest.get(formId) ?? record, now);
        runs.set(formId, run);
      }
      await run;
    };
  });
}
