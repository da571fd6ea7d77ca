import * as z from 'zod/mini';

/**
 * A string bounded in characters (code points), not UTF-16 units, after
 * trimming. A module of its own: creating a form needs it without the field
 * definitions (safe-regex2 and every field schema).
 */
export const boundedText = (min: number, max: number) =>
  z.string().check(
    z.trim(),
    z.refine((value) => [...value].length >= min, {
      message: min === 1 ? 'Must not be empty' : `Must be at least ${min} characters`,
    }),
    z.refine((value) => [...value].length <= max, {
      message: `Must be at most ${max} characters`,
    }),
  );
