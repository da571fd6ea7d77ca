import { streamWorker } from './batch-worker.ts';
import { recordDispatch } from './stream-dispatch.ts';

/**
 * One of the table stream's two readers (docs/architecture.md#workers): its
 * event source takes the union of what it serves (inserted submissions and
 * every dispatched worker's filter); each record is announced and handed on
 * by recordDispatch. Records of a batch are handled at once: only one item's
 * hand-ons wait for each other. A batch retried from a failed record skips
 * the records after it that this container did already.
 */
export const handler = streamWorker(() => recordDispatch({ skipDone: true }), { parallel: true });
