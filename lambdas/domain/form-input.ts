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
