import { describe, expect, it } from 'vitest';
import type { Submission } from '#domain/submission-model.ts';
import { webhookFields, webhookPayload } from '#domain/webhook-payload.ts';

const submission: Submission = {
  id: '0192f3a4-5b6c-7d8e-9f01-23456789abcd',
  formId: 'frm_123',
  data: {
    name: 'Zoë',
    email: 'zoe@example.com',
    _invalid: '[{"fieldId":"email","reason":"invalid_email"}]',
  },
  meta: {
    ip: '203.0.113.9',
    userAgent: 'Mozilla/5.0',
    referrer: '',
    files: [{ name: 'cv.pdf', mime: 'application/pdf', size: 1234 }],
  },
  read: false,
  starred: false,
  isSpam: false,
  isTest: false,
  createdAt: '2026-11-23T09:00:00.000Z',
};
const sentAt = new Date('2026-11-23T09:00:05.123Z');

describe('webhookPayload', () => {
  it('is the exact JSON body of docs/delivery.md#webhook-requests, with data.spam', () => {
    expect(webhookPayload(submission, sentAt, false)).toBe(
      '{"type":"submission.created","timestamp":"2026-11-23T09:00:05.123Z","data":{' +
        '"formId":"frm_123","submissionId":"0192f3a4-5b6c-7d8e-9f01-23456789abcd",' +
        '"submittedAt":"2026-11-23T09:00:00.000Z","test":false,"spam":false,' +
        '"fields":{"name":"Zoë","email":"zoe@example.com"},' +
        '"files":[{"name":"cv.pdf","mime":"application/pdf","size":1234,"scan":"not_scanned"}]}}',
    );
  });

  it('leaves out special fields (_invalid), the IP and any link to a file, and carries test and spam', () => {
    const body = JSON.parse(webhookPayload({ ...submission, isTest: true }, sentAt, true));
    expect(body.data.fields).toEqual({ name: 'Zoë', email: 'zoe@example.com' });
    expect(body.data.test).toBe(true);
    expect(body.data.spam).toBe(true);
    // Each file only by its name, type, size and malware scan: never a link to fetch it.
    expect(body.data.files).toEqual([
      { name: 'cv.pdf', mime: 'application/pdf', size: 1234, scan: 'not_scanned' },
    ]);
    expect(JSON.stringify(body)).not.toMatch(/https?:|uploads|forms\//);
    expect(JSON.stringify(body)).not.toContain('203.0.113.9');
  });

  it('timestamp is the attempt, submittedAt the submission', () => {
    const later = new Date('2026-11-23T11:00:00.000Z');
    const body = JSON.parse(webhookPayload(submission, later, false));
    expect(body.timestamp).toBe('2026-11-23T11:00:00.000Z');
    expect(body.data.submittedAt).toBe(submission.createdAt);
  });

  it('keeps answers named after Object.prototype members', () => {
    const data = {
      constructor: 'c',
      toString: 't',
      hasOwnProperty: 'h',
      valueOf: 'v',
      isPrototypeOf: 'i',
    };
    const text = webhookPayload({ ...submission, data }, sentAt, false);
    expect(text).toContain('"constructor":"c"');
    expect(text).toContain('"toString":"t"');
    const fields = JSON.parse(text).data.fields;
    expect(fields).toEqual(data);
    expect(Object.getOwnPropertyDescriptor(fields, 'constructor')?.value).toBe('c');
  });

  it('builds fields on a null prototype; __proto__, a special (underscore) name, stays out', () => {
    const data: Record<string, string> = { a: 'x' };
    Object.defineProperty(data, '__proto__', { value: 'p', enumerable: true, writable: true });
    const fields = webhookFields(data);
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(JSON.stringify(fields)).toBe('{"a":"x"}');
  });

  it('keeps every answer however long (no 20 KB trim) and only string values', () => {
    const long = 'x'.repeat(10_000);
    const data = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`field${i}`, long]));
    const body = JSON.parse(webhookPayload({ ...submission, data }, sentAt, false));
    expect(Object.keys(body.data.fields)).toHaveLength(50);
    expect(body.data.fields.field49).toBe(long);
    expect(webhookFields({ a: 'x', b: 1, c: null, d: ['y'] })).toEqual({ a: 'x' });
  });
});
