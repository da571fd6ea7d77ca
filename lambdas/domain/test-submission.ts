import { askedAnswers } from './asked-answers.ts';
import { ratingScale } from './field-rules.ts';
import type { FieldDefinition, FormRecord } from './form-model.ts';
import type { Submission } from './submission-model.ts';

/** Answers for a form that accepts any fields. */
const ANY_FIELDS_SAMPLE = {
  name: 'Test Submitter',
  email: 'test@example.com',
  message: 'This is a test submission sent from the API.',
};

function sampleFor(field: FieldDefinition, now: Date): string | undefined {
  switch (field.type) {
    case 'email':
      return 'test@example.com';
    case 'number': {
      const low = field.min ?? 0;
      return String(field.max !== undefined && low > field.max ? field.max : low);
    }
    case 'date':
      return now.toISOString().slice(0, 10);
    case 'select':
    case 'radio':
      return field.options?.[0];
    case 'checkbox':
      return field.options?.[0] ?? 'on';
    case 'rating':
      return String(ratingScale(field).max);
    case 'tel':
      return '+1 555 0100';
    case 'url':
      return 'https://example.com';
    case 'file':
      // A test submission carries no file; its name is not an answer.
      return undefined;
    case 'textarea':
      return 'This is a test submission sent from the API.';
    case 'hidden':
      // What a page's URL would carry (`?source=…`).
      return 'test';
    case 'text':
      return 'Sample answer';
  }
}

/** Cut to a field's `maxLength` so a sample never fails the form's own length rule. */
function fitted(field: FieldDefinition, value: string): string {
  return field.maxLength !== undefined ? [...value].slice(0, field.maxLength).join('') : value;
}

/** One plausible answer per defined field, so notifications and webhooks show real shapes. */
export function sampleAnswers(fields: FieldDefinition[] | null, now: Date): Record<string, string> {
  if (fields === null) return { ...ANY_FIELDS_SAMPLE };
  const data: Record<string, string> = {};
  for (const field of fields) {
    const value = sampleFor(field, now);
    if (value !== undefined) data[field.id] = fitted(field, value);
  }
  return data;
}

/**
 * The sample submission as the delivery pipeline will read it: `isTest`
 * true, unread, no visitor address (nobody visited). A form with logic is
 * walked with the samples as a post is (docs/forms.md#the-walk), so the
 * sample holds only what a person answering so would have been asked.
 */
export function testSubmission(
  form: Pick<FormRecord, 'id' | 'fields' | 'pages'>,
  input: { id: string; userAgent: string; now: Date },
): Submission {
  const asked = askedAnswers(form, sampleAnswers(form.fields, input.now), []);
  return {
    id: input.id,
    formId: form.id,
    data: asked.data,
    meta: {
      userAgent: input.userAgent,
      referrer: '',
      ...(asked.endedOn !== undefined ? { endedOn: asked.endedOn } : {}),
    },
    read: false,
    starred: false,
    isSpam: false,
    isTest: true,
    createdAt: input.now.toISOString(),
  };
}
