import type * as z from 'zod';
import { invalidRequest } from '#domain/errors.ts';
import { issuesOf } from '#domain/validation-issues.ts';

/** Validates input against a schema; failures are 400 `invalid_request` with issues. */
export function parse<T extends z.ZodType>(
  schema: T,
  input: unknown,
  what = 'request body',
): z.infer<T> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw invalidRequest(`The ${what} is not valid`, issuesOf(result.error));
  return result.data;
}
