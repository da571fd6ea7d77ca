import * as z from 'zod/mini';
import { reasonOnlyInSpam } from './bulk-target.ts';
import { UUID_PATTERN } from './ids.ts';
import { FOLDERS } from './submission-folders.ts';
import { SPAM_REASONS, type Submission, submissionView } from './submission-model.ts';
import { inEnglish } from './validation-issues.ts';

export { type PageWindow, pageHolding, pageWindow } from './submission-pages.ts';

/**
 * `preview`: the longest answer cut to 140 characters, ending in `…` when cut
 * (docs/submissions.md#folders-and-paging).
 */
export const PREVIEW_CHARACTERS = 140;

/**
 * Query string of `GET /v1/forms/{formId}/submissions`; values arrive as
 * strings. `reason` narrows the spam folder to one spam reason
 * (docs/submissions.md#spam-reasons), so only with `filter=spam`.
 */
export const listQuery = inEnglish(
  z
    .strictObject({
      filter: z._default(z.enum(FOLDERS), 'all'),
      reason: z.optional(z.enum(SPAM_REASONS)),
      page: z._default(
        z.coerce.number().check(z.int(), z.minimum(1), z.maximum(Number.MAX_SAFE_INTEGER)),
        1,
      ),
      pageSize: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 15),
      around: z.optional(z.string().check(z.regex(UUID_PATTERN, 'Must be a submission id'))),
    })
    .check(reasonOnlyInSpam()),
);
export type ListQuery = z.infer<typeof listQuery>;

/**
 * The longest answer, whitespace folded to single spaces, cut to
 * PREVIEW_CHARACTERS code points (the last one an ellipsis when cut). The
 * `_invalid` report is not an answer.
 */
export function previewOf(data: Record<string, string>): string {
  let longest: string[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (name === '_invalid') continue;
    const characters = [...value.replace(/\s+/g, ' ').trim()];
    if (characters.length > longest.length) longest = characters;
  }
  if (longest.length <= PREVIEW_CHARACTERS) return longest.join('');
  return `${longest
    .slice(0, PREVIEW_CHARACTERS - 1)
    .join('')
    .trimEnd()}…`;
}

export function toListItem(submission: Submission) {
  return { ...submissionView(submission), preview: previewOf(submission.data) };
}
