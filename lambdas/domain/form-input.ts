import * as z from 'zod';
import { FORM_TYPES } from './form-model.ts';

/** A string bounded in characters (code points), not UTF-16 units, after trimming. */
export const boundedText = (min: number, max: number) =>
  z
    .string()
    .trim()
    .refine((value) => [...value].length >= min, {
      message: min === 1 ? 'Must not be empty' : `Must be at least ${min} characters`,
    })
    .refine((value) => [...value].length <= max, { message: `Must be at most ${max} characters` });

export const createFormInput = z.strictObject({
  name: boundedText(1, 200),
  type: z.enum(FORM_TYPES).default('contact'),
});
export type CreateFormInput = z.infer<typeof createFormInput>;

/** Kept as sent (a leading space is the point of the default). */
export const duplicateFormInput = z.strictObject({
  nameSuffix: z
    .string()
    .refine((value) => [...value].length <= 200, { message: 'Must be at most 200 characters' })
    .default(' copy'),
});

/** The copy's name, or undefined when source name and suffix exceed the 200-character limit. */
export function duplicateName(sourceName: string, suffix: string): string | undefined {
  const name = `${sourceName}${suffix}`.trim();
  const length = [...name].length;
  return length >= 1 && length <= 200 ? name : undefined;
}
