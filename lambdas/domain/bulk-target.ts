import * as z from 'zod';
import { FOLDERS } from './submission-folders.ts';

/**
 * SPEC.md's bulk `target`: exactly one of a list of ids or a folder as it was
 * at `asOf`. Ids are opaque here: one that is not a submission of the form
 * (another form's, or no id at all) is ignored, as SPEC.md says.
 */
export const bulkTarget = z.union([
  z.strictObject({
    ids: z.array(z.string().min(1).max(100)).min(1).max(1000),
  }),
  z.strictObject({
    filter: z.enum(FOLDERS),
    asOf: z.iso.datetime({ offset: true }),
  }),
]);
export type BulkTarget = z.infer<typeof bulkTarget>;

export const bulkUpdateInput = z
  .strictObject({
    target: bulkTarget,
    read: z.boolean().optional(),
    starred: z.boolean().optional(),
    isSpam: z.boolean().optional(),
  })
  .refine(
    (input) =>
      input.read !== undefined || input.starred !== undefined || input.isSpam !== undefined,
    { message: 'Give at least one of read, starred, isSpam', path: ['read'] },
  );
export type BulkUpdateInput = z.infer<typeof bulkUpdateInput>;

export const bulkDeleteInput = z.strictObject({ target: bulkTarget });

/**
 * `asOf` as a UTC ISO time, and never later than now: "received up to
 * `asOf`" cannot take in posts that arrive while the request runs.
 */
export function effectiveAsOf(asOf: string, now: Date): string {
  return new Date(Math.min(Date.parse(asOf), now.getTime())).toISOString();
}
