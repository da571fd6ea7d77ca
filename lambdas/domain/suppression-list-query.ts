import * as z from 'zod/mini';
import { inEnglish } from './validation-issues.ts';

/**
 * Query string of `GET /v1/team/suppressions` (docs/delivery.md#suppressed-addresses):
 * a page of the list in the order the table keeps it, by mailbox; `cursor` is the
 * previous page's `next` (the last mailbox shown), as the audit trail's is its last id.
 */
export const suppressionListQuery = inEnglish(
  z.strictObject({
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
    cursor: z.optional(
      z
        .string()
        .check(
          z.maxLength(320, 'Must be the next cursor of a previous page'),
          z.regex(/^[^\s@]+@[^\s@]+$/, 'Must be the next cursor of a previous page'),
        ),
    ),
  }),
);
