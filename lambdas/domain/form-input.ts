import * as z from 'zod/mini';
import { boundedText } from './bounded-text.ts';
import { FORM_TYPES } from './form-model.ts';
import { inEnglish } from './validation-issues.ts';

export const createFormInput = inEnglish(
  z.strictObject({
    name: boundedText(1, 200),
    type: z._default(z.enum(FORM_TYPES), 'contact'),
  }),
);
export type CreateFormInput = z.infer<typeof createFormInput>;

/** Kept as sent (a leading space is the point of the default). */
export const duplicateFormInput = inEnglish(
  z.strictObject({
    nameSuffix: z._default(
      z.string().check(
        z.refine((value) => [...value].length <= 200, {
          message: 'Must be at most 200 characters',
        }),
      ),
      ' copy',
    ),
  }),
);

/** The copy's name, or undefined when source name and suffix exceed the 200-character limit. */
export function duplicateName(sourceName: string, suffix: string): string | undefined {
  const name = `${sourceName}${suffix}`.trim();
  const length = [...name].length;
  return length >= 1 && length <= 200 ? name : undefined;
}
