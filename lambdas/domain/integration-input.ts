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
