import { type $ZodError, type $ZodType, config } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';

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
export function issuesOf(error: $ZodError): Issue[] {
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

/**
 * A `zod/mini` schema whose issues read in English. zod/mini ships no locale
 * (every message would be "Invalid input"); `zod` registers English when it
 * builds its first schema, and this does the same when the schema is built,
 * so a mini schema's issues are exactly those of its `zod` twin. Routes with
 * simple input use zod/mini (about 20 KB bundled, `zod` about 90 KB).
 */
export function inEnglish<T extends $ZodType>(schema: T): T {
  if (!config().localeError) config(en());
  return schema;
}
