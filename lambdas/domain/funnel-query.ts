import * as z from 'zod/mini';
import { LAST_STEP } from './funnel.ts';
import { inEnglish } from './validation-issues.ts';

/** `started`, or a page number from 2 to LAST_STEP (10). */
const STEP = /^(?:started|[2-9]|10)$/;

/**
 * The view beacon's query (docs/analytics.md#the-funnel): none for a view;
 * `reached` for a step of the funnel. Nothing else is taken: a beacon
 * carries no answer.
 */
export const viewBeaconQuery = inEnglish(
  z.strictObject({
    reached: z.optional(
      z.string().check(z.regex(STEP, `Must be "started" or a page number from 2 to ${LAST_STEP}`)),
    ),
  }),
);
