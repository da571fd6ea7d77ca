/**
 * What a saved field definition means to the submit checks, shared with the
 * save-time schema (field-definitions.ts, with zod) but free of zod, so the
 * submit path and the email and webhook workers do not bundle it.
 */

/**
 * Submitted values are cut to this (docs/submit.md#field-rules), so a longer
 * length rule could never apply.
 */
export const MAX_ANSWER_LENGTH = 10_000;
export const DEFAULT_RATING_MAX = 5;
/** A rating counts stars from 1 (the specification); `min: 0` makes it a 0–max score (NPS). */
export const DEFAULT_RATING_MIN = 1;

/**
 * The answers a rating takes, `min` to `max` (docs/submit.md#field-checks):
 * one code for the answer checks, the drawn radios and the summary.
 */
export function ratingScale(field: { min?: number; max?: number }): { min: number; max: number } {
  return { min: field.min ?? DEFAULT_RATING_MIN, max: field.max ?? DEFAULT_RATING_MAX };
}

/**
 * The one way a stored `pattern` becomes a RegExp, for this check and for the
 * submit checks alike: like the HTML `pattern` attribute it must match the
 * whole answer; the `u` flag makes `.` and classes work on code points.
 */
export function fieldPattern(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`, 'u');
}
