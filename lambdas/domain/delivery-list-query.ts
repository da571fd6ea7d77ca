import * as z from 'zod/mini';
import { UUID_PATTERN } from './ids.ts';
import { inEnglish } from './validation-issues.ts';
import { DELIVERY_STATUSES } from './webhook-delivery.ts';

// Apart from delivery-log.ts so the workers that write deliveries do not bundle zod.

/** Query string of `GET /v1/forms/{id}/webhook/deliveries`; values arrive as strings. */
export const deliveryListQuery = inEnglish(
  z.strictObject({
    status: z.optional(z.enum(DELIVERY_STATUSES)),
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 25),
    /** The `next` of the previous page: a delivery id. */
    after: z.optional(
      z.string().check(z.regex(UUID_PATTERN, 'Must be the next cursor of a previous page')),
    ),
    /**
     * Only this submission's delivery (one item read, never a walk of the log):
     * docs/delivery.md#delivery-log.
     */
    submissionId: z.optional(z.string().check(z.regex(UUID_PATTERN, 'Must be a submission id'))),
  }),
);
