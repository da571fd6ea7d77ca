import type { Submission } from '#domain/submission-model.ts';
import type { Form } from './model.ts';

/** What the emails screen renders its previews with: a submission a visitor might send. */

/** A sample answer for each type of field, as a visitor might send it. */
const SAMPLE: Record<string, string> = {
  email: 'ada@example.com',
  number: '3',
  rating: '4',
  date: '2026-12-01',
  tel: '+44 20 7946 0000',
  url: 'https://example.com',
  checkbox: 'on',
  textarea: 'Could you send me the price list for the spring workshop?',
};

export function sampleSubmission(form: Form): Submission {
  const data: Record<string, string> = {};
  const fields = form.fields ?? [
    { id: 'name', type: 'text', label: 'Name' },
    { id: 'email', type: 'email', label: 'Email' },
    { id: 'message', type: 'textarea', label: 'Message' },
  ];
  for (const field of fields) {
    if (field.type === 'file') continue;
    data[field.id] =
      field.type === 'select' || field.type === 'radio'
        ? (field.options?.[0] ?? '')
        : (SAMPLE[field.type] ?? (field.id === 'name' ? 'Ada Lovelace' : 'A sample answer'));
  }
  return {
    id: '00000000-0000-7000-8000-000000000000',
    formId: form.id,
    data,
    meta: {
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
      referrer: 'https://example.com/contact',
      country: 'GB',
      deviceClass: 'desktop',
    },
    read: false,
    starred: false,
    isSpam: false,
    isTest: false,
    createdAt: new Date().toISOString(),
  } as Submission;
}
