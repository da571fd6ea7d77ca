import * as z from 'zod/mini';
import { UUID_PATTERN } from './ids.ts';
import { FOLDERS } from './submission-folders.ts';
import { words } from './submission-search.ts';
import { inEnglish } from './validation-issues.ts';

// Apart from submission-search.ts, so the store's reads bundle no zod.

/** Query string of `GET /v1/forms/{id}/submissions/search`. */
export const searchQuery = inEnglish(
  z.strictObject({
    q: z.string().check(
      z.refine((value) => words(value).length > 0, 'Must hold a word to search for'),
      z.maxLength(200, 'Must be at most 200 characters'),
    ),
    folder: z._default(z.enum(FOLDERS), 'all'),
    /** The `next` of the previous call: the last submission it looked at. */
    cursor: z.optional(
      z.string().check(z.regex(UUID_PATTERN, 'Must be the next cursor of a previous call')),
    ),
  }),
);
export type SearchQuery = z.infer<typeof searchQuery>;
