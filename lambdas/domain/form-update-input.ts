import * as z from 'zod/mini';
import { allowedOriginsInput, blockedCountriesInput, blockedIpsInput } from './access-lists.ts';
import { boundedText } from './bounded-text.ts';
import { placeholderProblem } from './email-placeholders.ts';
import { invalidRequest } from './errors.ts';
import { FIELD_ID, fieldsInput } from './field-definitions.ts';
import { conditionGroup, pagesInput } from './form-logic-input.ts';
import { FORM_TYPES } from './form-model.ts';
import { RETENTION_DAYS_MAX } from './retention.ts';
import { inEnglish, issuesOf } from './validation-issues.ts';

/**
 * The body of `PATCH /v1/forms/{id}`: every key optional, bounds from the
 * docs/api-basics.md#limits. Checks that need the saved form or the clock
 * (captcha keys, redirect URL, close date in the future, plan) are in
 * `applyFormUpdate`.
 */

/** Subjects and the sender name end up in mail headers: one line, no control characters. */
const headerText = (min: number, max: number) =>
  boundedText(min, max).check(
    z.refine((value) => !/\p{Cc}/u.test(value), {
      message: 'Must be one line without control characters',
    }),
  );

/**
 * Email texts with placeholders: a `{{…}}` that is not one is refused, naming
 * the known ones, rather than sent as written (docs/delivery.md#placeholders).
 */
const withPlaceholders = <T extends z.ZodMiniType<string, string>>(schema: T) =>
  schema.check(
    z.superRefine((value: string, context) => {
      const problem = placeholderProblem(value);
      if (problem) context.issues.push({ code: 'custom', message: problem, input: value });
    }),
  );

const isHttpUrl = (value: string) => {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
};

/** Empty (after trimming) means "none" (docs/forms.md#changing-a-form, `redirectUrl`). */
const emptyAsNull = (schema: z.ZodMiniType<string, string>) =>
  z.pipe(
    z.union([z.null(), schema]),
    z.transform((value: string | null) => (value === '' ? null : value)),
  );

const design = z.strictObject(
  {
    theme: z.optional(z.enum(['light', 'dark', 'auto'])),
    accent: z.optional(
      z.pipe(
        z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/, 'Must be a colour like #2563eb')),
        z.transform((value: string) => value.toLowerCase()),
      ),
    ),
    title: z.optional(boundedText(0, 200)),
    description: z.optional(boundedText(0, 2000)),
    submitLabel: z.optional(boundedText(0, 50)),
    successMessage: z.optional(boundedText(0, 500)),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Not a design key' : undefined) },
);

/** A notification recipient: `notifyEmail`, and each of `notifyCc`. */
const notifyAddress = z.pipe(
  z.string().check(z.trim(), z.maxLength(254)),
  z.email('Must be an email address'),
);

/** Recipients besides `notifyEmail`: with it, 5 at most (docs/delivery.md#notification-email). */
export const MAX_NOTIFY_CC = 4;

/** Each address once, in any case, as first written. */
function oncePerAddress(addresses: string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((address) => {
    const folded = address.toLowerCase();
    if (seen.has(folded)) return false;
    seen.add(folded);
    return true;
  });
}

/**
 * The other recipients of the notification: each an address, a bad one an
 * issue at its index; the same address twice (in any case) kept once, as
 * first written, so a retyped list never mails a person twice.
 */
const notifyCc = z.pipe(
  z
    .array(notifyAddress)
    .check(
      z.maxLength(MAX_NOTIFY_CC, `Must be at most ${MAX_NOTIFY_CC} addresses besides notifyEmail`),
    ),
  z.transform((addresses: string[]) => oncePerAddress(addresses)),
);

/** Routing rules a form may have, and the addresses one may add (docs/forms.md#routing-by-answer). */
export const MAX_NOTIFY_RULES = 10;
/** With notifyCc's 4, every rule holding stays within SES's 50 recipients a message. */
export const MAX_RULE_RECIPIENTS = 4;

/** Who else a submission's notification goes to when its answers match (Pro). */
const notifyRules = z
  .array(
    z.strictObject(
      {
        if: conditionGroup,
        to: z.pipe(
          z
            .array(notifyAddress)
            .check(
              z.minLength(1, 'Must name at least one address'),
              z.maxLength(MAX_RULE_RECIPIENTS, `Must be at most ${MAX_RULE_RECIPIENTS} addresses`),
            ),
          z.transform((addresses: string[]) => oncePerAddress(addresses)),
        ),
      },
      {
        error: (issue) =>
          issue.code === 'unrecognized_keys' ? 'Not a key of a routing rule' : undefined,
      },
    ),
  )
  .check(z.maxLength(MAX_NOTIFY_RULES, `Must have at most ${MAX_NOTIFY_RULES} rules`));

/**
 * `{ "field": <field id> }`: the email field a setting reads the person's
 * address from (docs/forms.md#one-answer-per-person); which field it may be
 * is checked against the form as saved (`personFieldIssue`).
 */
const personField = (setting: string) =>
  z.strictObject(
    { field: z.string().check(z.regex(FIELD_ID, 'Must be a field id')) },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? `Not a key of ${setting} (only field)` : undefined,
    },
  );

/** An optional setting that may also be set to null (cleared). */
const nullish = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));

export const formUpdateInput = inEnglish(
  z.strictObject(
    {
      name: z.optional(boundedText(1, 200)),
      type: z.optional(z.enum(FORM_TYPES)),
      status: z.optional(z.enum(['active', 'paused'])),
      emoji: z.optional(emptyAsNull(boundedText(0, 32))),
      maxSubmissions: nullish(z.int().check(z.minimum(1), z.maximum(1_000_000))),
      autoCloseAt: nullish(
        z.pipe(
          z.iso.datetime({ offset: true, error: 'Must be an ISO 8601 time with Z or an offset' }),
          // Stored like every other timestamp: UTC, millisecond precision.
          z.transform((value: string) => new Date(value).toISOString()),
        ),
      ),
      closedMessage: nullish(boundedText(1, 500)),
      notifyEnabled: z.optional(z.boolean()),
      notifyEmail: nullish(notifyAddress),
      notifyCc: z.optional(notifyCc),
      notifyRules: z.optional(notifyRules),
      notifySubject: z.optional(withPlaceholders(headerText(1, 500))),
      notifyFromName: z.optional(headerText(1, 100)),
      autoreplyEnabled: z.optional(z.boolean()),
      autoreplySubject: nullish(withPlaceholders(headerText(1, 500))),
      autoreplyBody: nullish(withPlaceholders(boundedText(1, 5000))),
      autoreplyAnswerPlaceholders: z.optional(z.boolean()),
      autoreplyHourlyLimit: z.optional(z.int().check(z.minimum(1), z.maximum(1000))),
      completionMode: z.optional(z.enum(['default', 'message', 'redirect'])),
      completionTitle: nullish(boundedText(1, 200)),
      completionMessage: nullish(boundedText(1, 2000)),
      redirectUrl: z.optional(
        emptyAsNull(
          boundedText(0, 2048).check(
            z.refine((value) => value === '' || isHttpUrl(value), {
              message: 'Must be an http:// or https:// URL',
            }),
          ),
        ),
      ),
      fields: nullish(fieldsInput),
      pages: nullish(pagesInput),
      design: z.optional(design),
      allowedOrigins: z.optional(allowedOriginsInput),
      blockedIps: z.optional(blockedIpsInput),
      blockedCountries: z.optional(blockedCountriesInput),
      captchaSiteKey: nullish(boundedText(1, 200)),
      captchaSecretKey: nullish(boundedText(1, 500)),
      captchaEnabled: z.optional(z.boolean()),
      dontStoreIp: z.optional(z.boolean()),
      markDuplicates: z.optional(z.boolean()),
      unique: nullish(personField('unique')),
      retentionDays: nullish(z.int().check(z.minimum(1), z.maximum(RETENTION_DAYS_MAX))),
      confirmEmail: nullish(personField('confirmEmail')),
      allowUploads: z.optional(z.boolean()),
      uploadLimitMb: z.optional(z.int().check(z.minimum(1), z.maximum(100))),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? 'Unknown or read-only form setting' : undefined,
    },
  ),
);

export type FormUpdate = z.output<typeof formUpdateInput>;

/** Parses a PATCH body; failures are 400 `invalid_request` with one issue per problem. */
export function parseFormUpdate(body: unknown): FormUpdate {
  // No body is an empty update, as `parse` in the HTTP layer treats it.
  const result = formUpdateInput.safeParse(body ?? {});
  if (!result.success)
    throw invalidRequest('The request body is not valid', issuesOf(result.error));
  return result.data;
}
