import * as z from 'zod';
import { allowedOriginsInput, blockedCountriesInput, blockedIpsInput } from './access-lists.ts';
import { invalidRequest } from './errors.ts';
import { boundedText, fieldsInput } from './field-definitions.ts';
import { FORM_TYPES } from './form-model.ts';
import { issuesOf } from './validation-issues.ts';

/**
 * The body of `PATCH /v1/forms/{id}`: every key optional, bounds from the
 * SPEC form table and Limits. Checks that need the saved form or the clock
 * (captcha keys, redirect URL, close date in the future, plan) are in
 * `applyFormUpdate`.
 */

/** Subjects and the sender name end up in mail headers: one line, no control characters. */
const headerText = (min: number, max: number) =>
  boundedText(min, max).refine((value) => !/\p{Cc}/u.test(value), {
    message: 'Must be one line without control characters',
  });

const isHttpUrl = (value: string) => {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
};

/** Empty (after trimming) means "none", as SPEC says for `redirectUrl`. */
const emptyAsNull = <T extends z.ZodType<string, string>>(schema: T) =>
  z.union([z.null(), schema]).transform((value) => (value === '' ? null : value));

const design = z.strictObject(
  {
    theme: z.enum(['light', 'dark', 'auto']).optional(),
    accent: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'Must be a colour like #2563eb')
      .transform((value) => value.toLowerCase())
      .optional(),
    title: boundedText(0, 200).optional(),
    description: boundedText(0, 2000).optional(),
    submitLabel: boundedText(0, 50).optional(),
    successMessage: boundedText(0, 500).optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Not a design key' : undefined) },
);

export const formUpdateInput = z.strictObject(
  {
    name: boundedText(1, 200).optional(),
    type: z.enum(FORM_TYPES).optional(),
    status: z.enum(['active', 'paused']).optional(),
    emoji: emptyAsNull(boundedText(0, 32)).optional(),
    maxSubmissions: z.number().int().min(1).max(1_000_000).nullable().optional(),
    autoCloseAt: z.iso
      .datetime({ offset: true, error: 'Must be an ISO 8601 time with Z or an offset' })
      // Stored like every other timestamp: UTC, millisecond precision.
      .transform((value) => new Date(value).toISOString())
      .nullable()
      .optional(),
    closedMessage: boundedText(1, 500).nullable().optional(),
    notifyEnabled: z.boolean().optional(),
    notifyEmail: z
      .string()
      .trim()
      .max(254)
      .pipe(z.email('Must be an email address'))
      .nullable()
      .optional(),
    notifySubject: headerText(1, 500).optional(),
    notifyFromName: headerText(1, 100).optional(),
    autoreplyEnabled: z.boolean().optional(),
    autoreplySubject: headerText(1, 500).nullable().optional(),
    autoreplyBody: boundedText(1, 5000).nullable().optional(),
    completionMode: z.enum(['default', 'message', 'redirect']).optional(),
    completionTitle: boundedText(1, 200).nullable().optional(),
    completionMessage: boundedText(1, 2000).nullable().optional(),
    redirectUrl: emptyAsNull(
      boundedText(0, 2048).refine((value) => value === '' || isHttpUrl(value), {
        message: 'Must be an http:// or https:// URL',
      }),
    ).optional(),
    fields: fieldsInput.nullable().optional(),
    design: design.optional(),
    allowedOrigins: allowedOriginsInput.optional(),
    blockedIps: blockedIpsInput.optional(),
    blockedCountries: blockedCountriesInput.optional(),
    captchaSiteKey: boundedText(1, 200).nullable().optional(),
    captchaSecretKey: boundedText(1, 500).nullable().optional(),
    captchaEnabled: z.boolean().optional(),
    dontStoreIp: z.boolean().optional(),
    allowUploads: z.boolean().optional(),
    uploadLimitMb: z.number().int().min(1).max(100).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? 'Unknown or read-only form setting' : undefined,
  },
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
