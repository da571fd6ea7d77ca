import { parseReplayJob } from '#domain/stream-replay.ts';
import { log } from '#log';
import { replayedInserts } from '#store/submission-replays.ts';
import { queueWorker } from './batch-worker.ts';
import { recordDispatch } from './stream-dispatch.ts';

/**
 * Replays the stream's work for the submissions a message names
 * (docs/operations.md#replaying-the-stream): each one still stored is read
 * back and given to the stream dispatcher's own code as an INSERT record,
 * with the dispatcher's grants. What was done already is not done twice:
 * the delivery log queues a webhook, chat or Sheets delivery once, the
 * email marks send an email once, and the purgers find nothing left. The
 * summary is not replayed: its buckets take each stream record once by its
 * sequence number, and a replayed INSERT has none.
 */
export const handler = queueWorker(
  () => {
    const dispatch = recordDispatch();
    return async (message) => {
      const job = parseReplayJob(message.body);
      const records = await replayedInserts(job.formId, job.submissionIds);
      // Started in order: one form's hand-ons keep the order of its ids.
      await Promise.all(records.map((record) => dispatch(record)));
      log.info('submissions replayed', {
        formId: job.formId,
        replayed: records.length,
        gone: job.submissionIds.length - records.length,
      });
    };
  },
  { parallel: true },
);
