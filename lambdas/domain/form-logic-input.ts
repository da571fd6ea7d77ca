import * as z from 'zod/mini';
import { boundedText } from './bounded-text.ts';
import { CONDITION_OPERATORS, type ConditionGroup, END } from './form-logic.ts';

/**
 * The shapes of a form's logic as a client writes them (docs/forms.md#logic):
 * conditions and their groups, pages and their rules, with their bounds.
 * What needs the whole form (a field that exists and comes before, an
 * operator its type takes, a page that lies ahead) is checked once the
 * update is applied (form-logic-checks.ts), so a request that changes the
 * fields alone is held to the pages already saved.
 */

export const MAX_CONDITIONS = 10;
export const MAX_PAGES = 10;
export const MAX_PAGE_RULES = 10;
export const MAX_CONDITION_VALUES = 100;
/** As an option is (field-definitions.ts): a value names an option, or a part of an answer. */
const MAX_VALUE_LENGTH = 200;

/** Page ids are written as field ids are, and never `end` (where a rule may go instead). */
const PAGE_ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

const conditionValue = boundedText(1, MAX_VALUE_LENGTH);

const condition = z.strictObject(
  {
    field: z.string().check(z.minLength(1, 'Must name a field'), z.maxLength(64)),
    op: z.enum(CONDITION_OPERATORS, {
      error: () => `Must be one of: ${CONDITION_OPERATORS.join(', ')}`,
    }),
    value: z.optional(
      z.union([
        conditionValue,
        z
          .array(conditionValue)
          .check(z.minLength(1, 'Must name at least one value'), z.maxLength(MAX_CONDITION_VALUES)),
      ]),
    ),
  },
  {
    error: (issue) => (issue.code === 'unrecognized_keys' ? 'Not a key of a condition' : undefined),
  },
);

const conditions = z
  .array(condition)
  .check(
    z.minLength(1, 'Must have at least one condition'),
    z.maxLength(MAX_CONDITIONS, `Must have at most ${MAX_CONDITIONS} conditions`),
  );

/**
 * `{"all": [...]}` or `{"any": [...]}`: one object with exactly one of the two
 * keys, so an issue's path reads `showIf.all.2.op`, not a union's alternatives.
 */
export const conditionGroup = z.pipe(
  z
    .strictObject(
      { all: z.optional(conditions), any: z.optional(conditions) },
      {
        error: (issue) =>
          issue.code === 'unrecognized_keys'
            ? 'Not a key of a condition group: use "all" or "any"'
            : undefined,
      },
    )
    .check(
      z.refine((group) => (group.all === undefined) !== (group.any === undefined), {
        message: 'Must have exactly one of "all" (every condition holds) or "any" (one holds)',
      }),
    ),
  z.transform(
    (group): ConditionGroup => (group.all ? { all: group.all } : { any: group.any ?? [] }),
  ),
);

const pageRule = z.strictObject(
  {
    if: conditionGroup,
    goTo: z.string().check(z.minLength(1, 'Must name a later page or "end"'), z.maxLength(64)),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Not a key of a rule' : undefined) },
);

const page = z.strictObject(
  {
    id: z.string().check(
      z.regex(PAGE_ID, 'Must start with a letter and use only letters, digits, - and _ (up to 64)'),
      z.refine((id) => id !== END, { message: `"${END}" is where a rule ends the form` }),
    ),
    title: z.optional(boundedText(0, 200)),
    fields: z
      .array(z.string().check(z.maxLength(64)))
      .check(z.minLength(1, 'A page must hold at least one field'), z.maxLength(30)),
    next: z.optional(
      z
        .array(pageRule)
        .check(z.maxLength(MAX_PAGE_RULES, `Must have at most ${MAX_PAGE_RULES} rules`)),
    ),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Not a key of a page' : undefined) },
);

/**
 * Up to 10 pages with distinct ids; an empty list means none (the form is one
 * page), stored as null.
 */
export const pagesInput = z.pipe(
  z.array(page).check(
    z.maxLength(MAX_PAGES, `Must have at most ${MAX_PAGES} pages`),
    z.superRefine((pages, ctx) => {
      const seen = new Set<string>();
      pages.forEach((each, index) => {
        if (seen.has(each.id)) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'id'],
            message: `Duplicate page id "${each.id}"`,
          });
        }
        seen.add(each.id);
      });
    }),
  ),
  z.transform((pages) => (pages.length === 0 ? null : pages)),
);
