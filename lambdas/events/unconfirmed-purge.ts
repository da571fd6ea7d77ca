import { deleteFilesOf } from '#aws/uploads.ts';
import { config } from '#config';
import { isPending } from '#domain/confirmation-state.ts';
import { ServiceError } from '#domain/errors.ts';
import type { Submission } from '#domain/submission-model.ts';
import { hourOf, NOT_CONFIRMED_COUNTER } from '#domain/summary-counters.ts';
import { errorFields, log } from '#log';
import { count } from '#metrics';
import { walkFolder } from '#store/folder-reads.ts';
import { editSubmissions, SUBMISSIONS_PER_TRANSACTION } from '#store/submission-changes.ts';
import { addToHour } from '#store/summary-buckets.ts';

/**
 * Deletes the form's submissions still pending that were posted before
 * `upTo`, counting each in `notConfirmed`; the retention applier runs it too,
 * so a form with `retentionDays` is also swept of them on its schedule.
 */
export async function purgeUnconfirmed(formId: string, upTo: string): Promise<void> {
  try {
    const { count: deleted } = await editSubmissions(
      formId,
      walkFolder(formId, 'pending', { createdUpTo: upTo, batchSize: SUBMISSIONS_PER_TRANSACTION }),
      // Still pending and posted before the bound. A click after this read takes it out of
      // reach: the delete is conditional on the pending state it was planned from, fails, and
      // the item read again (confirmed) is left (submission-changes.ts, flagsCondition).
      (submission) => (isPending(submission) && submission.createdAt < upTo ? 'delete' : undefined),
      {
        afterCommit: async (gone) => {
          await countNotConfirmed(formId, gone);
          await deleteFilesOf(gone);
        },
      },
    );
    if (deleted > 0) {
      log.info('unconfirmed submissions deleted', { formId, count: deleted, postedBefore: upTo });
      count('UnconfirmedDeleted', deleted);
    }
  } catch (error) {
    // A form deleted meanwhile has nothing left to purge: its own purger removes the rest.
    if (error instanceof ServiceError && error.status === 404) return;
    log.error('purge of unconfirmed submissions failed', { formId, ...errorFields(error) });
    throw error;
  }
}

/** One `notConfirmed` per deleted submission, in its post's hour; a failure is logged, not retried. */
/** Posts before this (ISO) are past their link: `confirmLinkSeconds` before `now`. */
export function unconfirmedUpTo(now: Date): string {
  return new Date(now.getTime() - config.confirmLinkSeconds * 1000).toISOString();
}

async function countNotConfirmed(formId: string, gone: readonly Submission[]): Promise<void> {
  const perHour = new Map<string, number>();
  for (const submission of gone) {
    const hour = hourOf(submission.createdAt);
    perHour.set(hour, (perHour.get(hour) ?? 0) + 1);
  }
  for (const [hour, n] of perHour) {
    await addToHour(formId, hour, { [NOT_CONFIRMED_COUNTER]: n }).catch((error: unknown) =>
      log.error('unconfirmed submissions not counted', { formId, ...errorFields(error) }),
    );
  }
}
