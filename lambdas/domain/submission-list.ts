import * as z from 'zod';
import { UUID_PATTERN } from './ids.ts';
import { FOLDERS } from './submission-folders.ts';
import type { Submission } from './submission-model.ts';

/** DESIGN.md §5: the longest answer cut to 140 characters, ending in `…` when cut. */
export const PREVIEW_CHARACTERS = 140;

/** Query string of `GET /v1/forms/{formId}/submissions`; values arrive as strings. */
export const listQuery = z.strictObject({
  filter: z.enum(FOLDERS).default('all'),
  page: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(15),
  around: z.string().regex(UUID_PATTERN, 'Must be a submission id').optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

export interface PageWindow {
  page: number;
  pageCount: number;
  /** Submissions before the page, newest first. */
  skip: number;
}

/** A page past the end is the last page; an empty folder still has one (empty) page. */
export function pageWindow(total: number, pageSize: number, requestedPage: number): PageWindow {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(requestedPage, pageCount);
  return { page, pageCount, skip: (page - 1) * pageSize };
}

/** The page holding the submission at 0-based `position` of the newest-first list. */
export function pageHolding(position: number, pageSize: number): number {
  return Math.floor(position / pageSize) + 1;
}

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

export function toListItem(submission: Submission): Submission & { preview: string } {
  return { ...submission, preview: previewOf(submission.data) };
}
