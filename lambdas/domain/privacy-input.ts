import * as z from 'zod/mini';
import { ADDRESS_PATTERN, MAX_ADDRESS_LENGTH } from './email-index.ts';
import { inEnglish } from './validation-issues.ts';

/** The address a privacy request is about: compared trimmed and in lower case. */
const personEmail = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(MAX_ADDRESS_LENGTH),
    z.regex(ADDRESS_PATTERN, 'Must be an email address'),
  );

/** `POST /v1/privacy/erasures` (docs/privacy.md#erase-by-email). */
export const erasureInput = inEnglish(z.strictObject({ email: personEmail }));

/** `GET /v1/privacy/submissions?email=` (docs/privacy.md#export-by-email). */
export const privacyExportQuery = inEnglish(z.strictObject({ email: personEmail }));
