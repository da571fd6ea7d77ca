import type { FormType } from '#domain/form-model.ts';

/**
 * Each form type in words: what it starts with and what its summary counts
 * (docs/forms.md#starter-fields, docs/analytics.md). A Record, so a new type
 * in the domain cannot reach a screen without its words.
 */
export const FORM_TYPE_WORDS: Record<FormType, { label: string; description: string }> = {
  contact: {
    label: 'Contact',
    description: 'Name, email and message; the summary counts unread and time to first read.',
  },
  waitlist: {
    label: 'Waitlist',
    description: 'Email and name; the summary counts signups, new addresses and the running total.',
  },
  feedback: {
    label: 'Feedback',
    description: 'A rating and a message; the summary shows the average, spread and NPS on 0–10.',
  },
  rsvp: {
    label: 'RSVP',
    description: 'Name, email, attending and guests; the summary counts yes, no, maybe and guests.',
  },
  custom: {
    label: 'Custom',
    description: 'No starter fields: any answers your own form posts; no type-specific summary.',
  },
};

export const FORM_TYPES = Object.keys(FORM_TYPE_WORDS) as FormType[];
