import { scheduleRetentionSweep } from '#aws/scheduler.ts';
import { config } from '#config';
import { errorFields, log } from '#log';
import { oncePerForm } from './batch-worker.ts';
import { purgeExpired } from './retention-purge.ts';
import { purgeUnconfirmed, unconfirmedUpTo } from './unconfirmed-purge.ts';

/**
 * Runs when a form item is written while it has a `retentionDays` (filter
 * RETAINING_FORM_PATTERN, handed on by the stream dispatcher with the form's
 * `id` and `retentionDays`): set, changed, copied by a duplicate, or marked by
 * its retention sweep. Moves the form's next sweep to `retentionSweepSeconds`
 * from now (so a form that receives nothing is still swept), then deletes
 * what is past the retention now, so a change applies to what the form
 * holds (docs/submissions.md#retention). The sweep's mark is a write of the
 * form item, which brings the next run here: the chain ends when the form
 * is deleted or keeps everything again.
 */
export const handler = oncePerForm(
  (record) => record.dynamodb?.NewImage?.id?.S,
  async (formId, record, now) => {
    const days = Number(record.dynamodb?.NewImage?.retentionDays?.N);
    if (!Number.isInteger(days) || days < 1) return;
    // The next sweep first: a purge that keeps failing (its records then leave the stream)
    // must not end the form's chain of sweeps.
    const next = new Date(now.getTime() + config.retentionSweepSeconds * 1000).toISOString();
    try {
      await scheduleRetentionSweep(formId, next);
    } catch (error) {
      log.error('next retention sweep not scheduled', { formId, ...errorFields(error) });
      throw error;
    }
    await purgeExpired(formId, days, now);
    // Posts never confirmed by email go on the same sweep (docs/submit.md#confirm-by-email).
    await purgeUnconfirmed(formId, unconfirmedUpTo(now));
  },
);
