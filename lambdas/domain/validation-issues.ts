import type * as z from 'zod';

/** One problem with a request, in the shape every 400 `invalid_request` carries. */
export interface Issue {
  path: string;
  code: string;
  message: string;
}

/**
 * zod issues as the API shows them. An unknown-keys issue becomes one issue
 * per key, pathed at the key itself: a client then sees `fields.2.options`,
 * not `fields.2` plus a list buried in the message.
 */
export function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.flatMap((issue): Issue[] => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: [...path, key].join('.'),
        code: issue.code,
        message: issue.message,
      }));
    }
    return [{ path: path.join('.'), code: issue.code, message: issue.message }];
  });
}
