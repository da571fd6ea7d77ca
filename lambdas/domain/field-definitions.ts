import safeRegex from 'safe-regex2';
import * as z from 'zod/mini';
import { boundedText } from './bounded-text.ts';
import { DEFAULT_RATING_MAX, fieldPattern, MAX_ANSWER_LENGTH } from './field-rules.ts';
import { conditionGroup } from './form-logic-input.ts';
import { FIELD_TYPES, type FieldType } from './form-model.ts';
import { MAX_FORMER_OPTIONS } from './option-history.ts';
import { inEnglish } from './validation-issues.ts';

export { DEFAULT_RATING_MAX, fieldPattern, MAX_ANSWER_LENGTH } from './field-rules.ts';

/**
 * Field definitions (`fields` of a form) as a client may write them. Each
 * type is its own strict schema, so a property that means nothing for the
 * type (`options` on a text field, `pattern` on a textarea) is refused
 * instead of being stored and silently ignored by the submit checks.
 */

export const MAX_FIELDS = 30;
export const MAX_OPTIONS = 100;
export const MAX_PATTERN_LENGTH = 500;

export const FIELD_ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

const codePoints = (value: string) => [...value].length;

const pattern = z.string().check(
  z.minLength(1, 'Must not be empty'),
  z.refine((value) => codePoints(value) <= MAX_PATTERN_LENGTH, {
    message: `Must be at most ${MAX_PATTERN_LENGTH} characters`,
  }),
  z.superRefine((value, ctx) => {
    try {
      fieldPattern(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Is not a valid regular expression' });
      return;
    }
    // Answers are matched on the submit path, with the visitor choosing the
    // input: nested quantifiers like (a+)+ would let one post pin a CPU.
    // safe-regex2 also refuses syntax it cannot parse (e.g. lookbehind),
    // which errs on the safe side.
    if (!safeRegex(value)) {
      ctx.addIssue({
        code: 'custom',
        message: 'Could take exponential time to match (nested or too many repetitions)',
      });
    }
  }),
);

const common = {
  id: z
    .string()
    .check(
      z.regex(
        FIELD_ID,
        'Must start with a letter and use only letters, digits, - and _ (up to 64)',
      ),
    ),
  label: z.optional(boundedText(0, 200)),
  required: z.optional(z.boolean()),
  placeholder: z.optional(boundedText(0, 200)),
  helpText: z.optional(boundedText(0, 500)),
  // The form's logic (docs/forms.md#logic): whether the field is asked, and
  // when it must be answered, from earlier answers.
  showIf: z.optional(conditionGroup),
  requiredIf: z.optional(conditionGroup),
};

/** Filled from the hosted page's URL (`?id=value`), as a hidden field always is. */
const prefill = { prefill: z.optional(z.boolean()) };

/**
 * A field type's schema: the common properties plus its own, nothing else.
 * Every type but `file` may be prefilled (a file cannot come from a URL).
 */
const fieldOf = <T extends FieldType, S extends z.core.$ZodShape>(type: T, shape: S) =>
  z.strictObject(
    {
      ...common,
      // Typed as present on every type; left out of the file schema, which then refuses it.
      ...((type === 'file' ? {} : prefill) as typeof prefill),
      type: z.literal(type),
      ...shape,
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? `Not allowed on a ${type} field` : undefined,
    },
  );

const length = (min: number) =>
  z.optional(z.int().check(z.minimum(min), z.maximum(MAX_ANSWER_LENGTH)));

const text = fieldOf('text', {
  minLength: length(0),
  maxLength: length(1),
  pattern: z.optional(pattern),
}).check(
  z.superRefine((field, ctx) => {
    if (field.minLength !== undefined && field.maxLength !== undefined) {
      if (field.minLength > field.maxLength) {
        ctx.addIssue({ code: 'custom', path: ['minLength'], message: 'Must not exceed maxLength' });
      }
    }
  }),
);

const textarea = fieldOf('textarea', { maxLength: length(1) });

const number = fieldOf('number', {
  min: z.optional(z.number()),
  max: z.optional(z.number()),
}).check(
  z.superRefine((field, ctx) => {
    if (field.min !== undefined && field.max !== undefined && field.min > field.max) {
      ctx.addIssue({ code: 'custom', path: ['min'], message: 'Must not exceed max' });
    }
  }),
);

const options = z.array(boundedText(1, 200)).check(
  z.minLength(1),
  z.maxLength(MAX_OPTIONS),
  z.superRefine((values, ctx) => {
    const seen = new Set<string>();
    values.forEach((value, index) => {
      if (seen.has(value)) {
        ctx.addIssue({ code: 'custom', path: [index], message: `Duplicate option "${value}"` });
      }
      seen.add(value);
    });
  }),
);

/** How answers meet options: without surrounding spaces, in any case. */
const folded = (value: string) => value.trim().toLowerCase();

const formerOptions = z.optional(
  z.record(boundedText(1, 200), z.nullable(boundedText(1, 200))).check(
    z.refine((former) => Object.keys(former).length <= MAX_FORMER_OPTIONS, {
      message: `Can have at most ${MAX_FORMER_OPTIONS} former options`,
    }),
  ),
);

/**
 * A choice field: its options, and the words of options taken out since, each
 * counted under one of the options now (a rename) or apart (null). A former
 * option is not an option now, and a rename names one that is.
 */
const choiceOf = <T extends 'select' | 'radio'>(type: T) =>
  fieldOf(type, { options, formerOptions }).check(
    z.superRefine((field, ctx) => {
      const current = new Set(field.options.map(folded));
      for (const [words, target] of Object.entries(field.formerOptions ?? {})) {
        if (current.has(folded(words))) {
          ctx.addIssue({
            code: 'custom',
            path: ['formerOptions', words],
            message: `"${words}" is an option now, not a former one`,
          });
        } else if (target !== null && !field.options.includes(target)) {
          ctx.addIssue({
            code: 'custom',
            path: ['formerOptions', words],
            message: `Must name one of the options, not "${target}"`,
          });
        }
      }
    }),
  );

const rating = fieldOf('rating', {
  // Filled on save so the stored form says how many stars it shows.
  max: z._default(z.int().check(z.minimum(3), z.maximum(10)), DEFAULT_RATING_MAX),
  // 0 makes a 0–max score (an NPS question); left out it is 1, the specification's
  // stars, and a form saved before it existed reads the same.
  min: z.optional(z.int().check(z.minimum(0, 'Must be 0 or 1'), z.maximum(1, 'Must be 0 or 1'))),
});

export const fieldDefinition = z.discriminatedUnion(
  'type',
  [
    text,
    textarea,
    number,
    rating,
    choiceOf('select'),
    choiceOf('radio'),
    fieldOf('email', {}),
    fieldOf('date', {}),
    fieldOf('checkbox', {}),
    fieldOf('tel', {}),
    fieldOf('url', {}),
    fieldOf('file', {}),
    // Never drawn: filled from the page's URL or by the site's own hidden input,
    // and bounded like any answer.
    fieldOf('hidden', { maxLength: length(1) }),
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union' ? `Must be one of: ${FIELD_TYPES.join(', ')}` : undefined,
  },
);

/** Up to 30 definitions; ids are unique (case-sensitive, as form posts are). */
export const fieldsInput = inEnglish(
  z.array(fieldDefinition).check(
    z.maxLength(MAX_FIELDS),
    z.superRefine((fields, ctx) => {
      const seen = new Set<string>();
      fields.forEach((field, index) => {
        if (seen.has(field.id)) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'id'],
            message: `Duplicate field id "${field.id}"`,
          });
        }
        seen.add(field.id);
      });
    }),
  ),
);
