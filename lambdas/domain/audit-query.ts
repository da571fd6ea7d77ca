import * as z from 'zod/mini';
import { UUID_PATTERN } from './ids.ts';
import { inEnglish } from './validation-issues.ts';

/** Query string of `GET /v1/team/audit`. */
export const auditQuery = inEnglish(
  z.strictObject({
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
    cursor: z.optional(
      z.string().check(z.regex(UUID_PATTERN, 'Must be the next cursor of a previous page')),
    ),
  }),
);
