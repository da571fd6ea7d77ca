/**
 * What a saved field definition means to the submit checks, shared with the
 * save-time schema (field-definitions.ts, with zod) but free of zod, so the
 * submit path and the email and webhook workers do not bundle it.
 */

/**
 * Submitted values are cut to this (docs/api-guide.md#field-rules), so a longer
 * length rule could never apply.
 */
export const MAX_ANSWER_LENGTH = 10_000;
export const DEFAULT_RATING_MAX = 5;

/**
 * The one way a stored `pattern` becomes a RegExp, for this check and for the
 * submit checks alike: like the HTML `pattern` attribute it must match the
 * whole answer; the `u` flag makes `.` and classes work on code points.
 */
export function fieldPattern(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`, 'u');
}
