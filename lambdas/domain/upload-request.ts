import * as z from 'zod/mini';

/*
 * Kept apart from direct-uploads.ts so the submit function, which only reads
 * `_uploads`, does not bundle zod.
 */

/** The body of `POST /s/{key}/uploads`: the files a visitor is about to post. */
export const uploadRequestSchema = z.object({
  files: z
    .array(
      z.object({
        name: z.string().check(z.minLength(1), z.maxLength(1000)),
        /** Bytes, as the browser's File.size says; S3 enforces the form's limit on the real size. */
        size: z.int().check(z.minimum(1)),
        /** The declared MIME type; the object's Content-Type is fixed to it. */
        type: z.optional(z.string().check(z.maxLength(255))),
        /** The form field the file answers (for the field checks of `file` fields). */
        field: z.optional(z.string().check(z.maxLength(64))),
      }),
    )
    .check(z.minLength(1)),
});
