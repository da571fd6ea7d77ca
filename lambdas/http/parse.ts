import type * as z from 'zod/v4/core';
import { invalidRequest } from '#domain/errors.ts';
import { issuesOf } from '#domain/validation-issues.ts';

/** A `zod` or a `zod/mini` schema: both parse through the same core. */
type Schema = z.$ZodType & {
  safeParse(
    input: unknown,
  ): { success: true; data: unknown } | { success: false; error: z.$ZodError };
};

/** Validates input against a schema; failures are 400 `invalid_request` with issues. */
export function parse<T extends Schema>(
  schema: T,
  input: unknown,
  what = 'request body',
): z.output<T> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw invalidRequest(`The ${what} is not valid`, issuesOf(result.error));
  return result.data as z.output<T>;
}
