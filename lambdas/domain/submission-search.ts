import { type Folder, foldersOf } from './submission-folders.ts';
import type { Submission } from './submission-model.ts';

/**
 * Searching a form's answers. DynamoDB has no full-text index, so a search
 * reads the form's submissions newest first, a bounded slice per call
 * (SEARCH_READ_LIMIT), and answers the matches with a cursor to go on from
 * and how many it looked at: a call's cost is bounded, and the dashboard
 * shows results as they come.
 */

/** Submissions one call reads at most (and DynamoDB stops a page at 1 MB). */
export const SEARCH_READ_LIMIT = 200;

/** Text as compared: decomposed, accents dropped, lower case. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a query, folded: a submission matches when it holds every one. */
export function words(query: string): string[] {
  return foldText(query)
    .split(/[\s,;]+/u)
    .filter((word) => word.length > 0);
}

/**
 * Whether the submission is in `folder` and its answers (any field, the
 * address included) hold every word, case and accents aside.
 */
export function matches(submission: Submission, folder: Folder, wanted: string[]): boolean {
  if (!foldersOf(submission).includes(folder)) return false;
  const text = foldText(
    Object.entries(submission.data)
      .filter(([name]) => name !== '_invalid')
      .map(([, value]) => value)
      .join('\n'),
  );
  return wanted.every((word) => text.includes(word));
}
