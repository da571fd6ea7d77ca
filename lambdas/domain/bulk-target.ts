import * as z from 'zod/mini';
import { type Flags, FOLDERS, type Folder, foldersOf } from './submission-folders.ts';
import { SPAM_REASONS, type SpamReason, type Submission } from './submission-model.ts';
import { inEnglish } from './validation-issues.ts';

/**
 * A bulk `target` (docs/submissions.md#bulk-targets): exactly one of a list of
 * ids or a folder as it was at `asOf`. Ids are opaque here: one that is not a submission of the form
 * (another form's, or no id at all) is ignored.
 */
/**
 * A spam reason narrows the spam folder (docs/submissions.md#spam-reasons):
 * no other folder holds spam, so a reason with one is refused rather than
 * matching nothing.
 */
export function reasonOnlyInSpam<T extends { filter: Folder; reason?: SpamReason }>() {
  return z.refine<T>((value) => value.reason === undefined || value.filter === 'spam', {
    message: 'A reason narrows the spam folder: give it with filter spam',
    path: ['reason'],
  });
}

export const bulkTarget = inEnglish(
  z.union([
    z.strictObject({
      ids: z
        .array(z.string().check(z.minLength(1), z.maxLength(100)))
        .check(z.minLength(1), z.maxLength(1000)),
    }),
    z
      .strictObject({
        filter: z.enum(FOLDERS),
        reason: z.optional(z.enum(SPAM_REASONS)),
        asOf: z.iso.datetime({ offset: true }),
      })
      .check(reasonOnlyInSpam()),
  ]),
);
export type BulkTarget = z.infer<typeof bulkTarget>;

export const bulkUpdateInput = inEnglish(
  z
    .strictObject({
      target: bulkTarget,
      read: z.optional(z.boolean()),
      starred: z.optional(z.boolean()),
      isSpam: z.optional(z.boolean()),
    })
    .check(
      z.refine(
        (input) =>
          input.read !== undefined || input.starred !== undefined || input.isSpam !== undefined,
        { message: 'Give at least one of read, starred, isSpam', path: ['read'] },
      ),
    ),
);
export type BulkUpdateInput = z.infer<typeof bulkUpdateInput>;

export const bulkDeleteInput = inEnglish(z.strictObject({ target: bulkTarget }));

/**
 * `asOf` as a UTC ISO time, and never later than now: "received up to
 * `asOf`" cannot take in posts that arrive while the request runs.
 */
export function effectiveAsOf(asOf: string, now: Date): string {
  return new Date(Math.min(Date.parse(asOf), now.getTime())).toISOString();
}

/**
 * Whether a submission, as read now, is still one the target names. A
 * folder's index can lag behind its submissions, and a submission can leave
 * the folder between the read and the write: a `{ filter }` target acts
 * only on submissions whose current flags hold them in that folder, so
 * emptying spam never deletes one just moved out of it; with a `reason`,
 * only spam of that reason. Ids name their submissions whatever their flags.
 */
export function stillTargeted(
  target: BulkTarget,
  submission: Flags & Pick<Submission, 'spamReason'>,
): boolean {
  if (!('filter' in target)) return true;
  if (!foldersOf(submission).includes(target.filter)) return false;
  return target.reason === undefined || submission.spamReason === target.reason;
}
