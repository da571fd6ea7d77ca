import type { DynamoDBRecord } from 'aws-lambda';
import { sendInOrder } from '#aws/queues.ts';
import { matchesPattern } from '#domain/event-filter.ts';
import { dispatchedMessage, type StreamRecord, targetsOf } from '#domain/stream-dispatch.ts';
import {
  CONFIRMED_SCANNED_PATTERN,
  CONFIRMED_SUBMISSION_PATTERN,
  INSERTED_SUBMISSION_PATTERN,
  SCAN_SETTLED_PATTERN,
} from '#store/schema.ts';
import { dispatched } from '#workers';
import { scanAnnouncer } from './scan-fanout.ts';
import { submissionAnnouncer } from './submission-fanout.ts';

/**
 * What the stream dispatcher does with one record of the table stream
 * (docs/architecture.md#workers), and the replayer with a submission read
 * back from the table: an inserted submission is announced in process (the
 * delivery fan-out: no queue in between, so stored → webhook and → email
 * take no longer than with a reader of its own), so is a submission whose
 * files all have their malware scan's verdicts (scan-fanout.ts), and the record is handed
 * to each dispatched worker whose filter takes it, on that worker's FIFO
 * queue. One item's records are handed on in the batch's order: a record
 * waits for the previous record of its item (its partition key), and fails
 * without sending when that one failed, so a retry sends them again in
 * order (SQS drops a copy sent within 5 minutes, by the record's eventID).
 * Made once per invocation: it holds the batch's form reads and turns.
 *
 * With `skipDone` (the stream dispatcher), a record this container has
 * announced and handed on in full is not done again: a batch retried from
 * an earlier failed record comes back with the records after it, which
 * would otherwise queue their deliveries and emails once more on every try
 * (the workers would send each once all the same, a copy at a time).
 */
export function recordDispatch(
  options: { skipDone?: boolean } = {},
): (record: DynamoDBRecord) => Promise<void> {
  const announce = submissionAnnouncer();
  const announceScan = scanAnnouncer();
  /** The latest hand-on of each item (partition key) of the batch. */
  const handOns = new Map<string, Promise<void>>();
  return async (record) => {
    const id = record.eventID;
    if (options.skipDone && id && done.has(id)) return;
    const targets = targetsOf(record as StreamRecord, dispatched);
    let handOn: Promise<void> | undefined;
    if (targets.length > 0) {
      // Taken before the first await: records start in the batch's order.
      const item = record.dynamodb?.Keys?.pk?.S ?? '';
      handOn = (handOns.get(item) ?? Promise.resolve()).then(() =>
        handOnTo(record as StreamRecord, targets),
      );
      handOns.set(item, handOn);
    }
    await Promise.all([
      // A confirmed submission is announced as an inserted one: the same channels, once each.
      matchesPattern(record, INSERTED_SUBMISSION_PATTERN) ||
      matchesPattern(record, CONFIRMED_SUBMISSION_PATTERN)
        ? announce(record)
        : undefined,
      // Files scanned: when the last verdict comes, or, for one that waited for its visitor's
      // click with every verdict in, at the click (docs/delivery.md#files-scanned).
      matchesPattern(record, SCAN_SETTLED_PATTERN) ||
      matchesPattern(record, CONFIRMED_SCANNED_PATTERN)
        ? announceScan(record)
        : undefined,
      handOn,
    ]);
    if (options.skipDone && id) remember(id);
  };
}

/**
 * The eventIDs of the records this container dispatched in full, the latest
 * DONE_KEPT of them (a few batches' retries): in memory only, so another
 * container, or this one after a restart, does them again (safe: every
 * consumer is idempotent), just not on every retry of a batch.
 */
const done = new Set<string>();
const DONE_KEPT = 10_000;

function remember(id: string): void {
  done.add(id);
  if (done.size > DONE_KEPT) done.delete(done.values().next().value!);
}

async function handOnTo(record: StreamRecord, targets: typeof dispatched): Promise<void> {
  await Promise.all(
    targets.map((target) => sendInOrder(target.trigger.queue, [dispatchedMessage(record, target)])),
  );
}
