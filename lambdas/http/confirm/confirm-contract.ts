import type { Answer } from '#http/contract.ts';

/** The pages of a confirmation link, by status (docs/submit.md#confirm-by-email). */
export const OUTCOME_ANSWERS = [
  {
    status: 404,
    description: 'A forged link, or one whose answer is no longer kept: nothing changed.',
    body: { mediaType: 'text/html' },
  },
  {
    status: 409,
    description:
      'The form is full, closed, or already holds this person’s answer: nothing changed.',
    body: { mediaType: 'text/html' },
  },
  {
    status: 410,
    description:
      'The link expired (48 hours after the post): nothing changed; a link to send the form again.',
    body: { mediaType: 'text/html' },
  },
] as const satisfies readonly Answer[];
