import * as z from 'zod/mini';
import { CHAT_URL_MAX_LENGTH } from './integrations.ts';
import { inEnglish } from './validation-issues.ts';

// Apart from integrations.ts so the store and the workers that read integrations do not bundle zod.

/** `PUT /v1/forms/{id}/integrations/{kind}`'s body for Slack and Discord; the URL's rules are the kind's (chatUrlProblem). */
export const chatIntegrationInput = inEnglish(
  z.strictObject({
    webhookUrl: z
      .string()
      .check(z.maxLength(CHAT_URL_MAX_LENGTH, 'Must be at most 2,048 characters')),
  }),
);

/** Google's sheet names are at most 100 characters (docs/integrations.md#connecting-a-sheet). */
export const SHEET_NAME_MAX_LENGTH = 100;

/** `PUT /v1/forms/{id}/integrations/sheets`'s body (docs/integrations.md#connecting-a-sheet). */
export const sheetsIntegrationInput = inEnglish(
  z.strictObject({
    spreadsheetId: z
      .string()
      .check(
        z.regex(
          /^[A-Za-z0-9_-]{1,200}$/,
          'Must be a spreadsheet id: 1 to 200 letters, digits, _ and -',
        ),
      ),
    sheetName: z.optional(
      z
        .string()
        .check(
          z.minLength(1, 'Must not be empty'),
          z.maxLength(SHEET_NAME_MAX_LENGTH, 'Must be at most 100 characters'),
        ),
    ),
  }),
);

/** The route's body, one shape per kind: the handler parses the kind's own (400 naming its field). */
export const integrationInput = inEnglish(z.union([chatIntegrationInput, sheetsIntegrationInput]));
