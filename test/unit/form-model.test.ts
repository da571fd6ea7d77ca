import { describe, expect, it } from 'vitest';
import { duplicateForm, newForm, newFormKey, starterFields } from '#domain/form-defaults.ts';
import { createFormInput } from '#domain/form-input.ts';
import { FORM_TYPES, toFormSummary, toFullForm } from '#domain/form-model.ts';

const base = { teamId: 't1', userId: 'u1', now: new Date('2026-01-02T03:04:05.678Z') };

describe('new forms', () => {
  it('form keys are 12 lower-case letters and digits, starting with a letter, and differ', () => {
    const keys = Array.from({ length: 500 }, () => newFormKey());
    for (const key of keys) expect(key).toMatch(/^[a-z][a-z0-9]{11}$/);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('every type but custom starts with unique, valid field ids', () => {
    for (const type of FORM_TYPES) {
      const fields = starterFields(type);
      if (type === 'custom') {
        expect(fields).toBeNull();
        continue;
      }
      const ids = fields!.map((f) => f.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/);
    }
  });

  it('starter fields are copies: changing one form never changes the next', () => {
    const first = newForm({ ...base, name: 'A', type: 'contact' });
    first.fields![0]!.label = 'changed';
    expect(newForm({ ...base, name: 'B', type: 'contact' }).fields![0]!.label).toBe('Name');
  });

  it('the full object hides the captcha secret, reports whether one is set, and shows the endpoint', () => {
    const form = {
      ...newForm({ ...base, name: 'A', type: 'contact' }),
      captchaSecretKey: 's3cret',
    };
    const full = toFullForm(form, 'https://api.example.com');
    expect(full).not.toHaveProperty('captchaSecretKey');
    expect(full).not.toHaveProperty('teamId');
    expect(JSON.stringify(full)).not.toContain('s3cret');
    expect(full.captchaSecretKeySet).toBe(true);
    expect(full.endpoint).toBe(`https://api.example.com/s/${form.key}`);
    expect(full.createdAt).toBe('2026-01-02T03:04:05.678Z');
    expect(toFullForm({ ...form, captchaSecretKey: null }, 'x').captchaSecretKeySet).toBe(false);
  });

  it('the short shape carries exactly the list fields', () => {
    const summary = toFormSummary(
      { ...newForm({ ...base, name: 'A', type: 'rsvp' }), unreadCount: 2, testCount: 1 },
      'https://x',
    );
    expect(Object.keys(summary).sort()).toEqual(
      [
        'createdAt',
        'emoji',
        'endpoint',
        'id',
        'key',
        'name',
        'status',
        'submissionCount',
        'testCount',
        'type',
        'unreadCount',
      ].sort(),
    );
  });
});

describe('duplicates', () => {
  it('copy settings and the captcha secret, never counters, ownership or closing', () => {
    const source = {
      ...newForm({ ...base, name: 'A', type: 'contact' }),
      submissionCount: 42,
      captchaSecretKey: 'secret',
      status: 'paused' as const,
      closedReason: 'max_submissions' as const,
      maxSubmissions: 42,
      autoCloseAt: '2030-01-01T00:00:00.000Z',
      notifySubject: 'Custom {{form.name}}',
    };
    const now = new Date('2027-05-05T00:00:00.000Z');
    const copy = duplicateForm(source, { name: 'A copy', userId: 'u2', now });
    expect(copy).toMatchObject({
      name: 'A copy',
      userId: 'u2',
      teamId: source.teamId,
      submissionCount: 0,
      captchaSecretKey: 'secret',
      notifySubject: 'Custom {{form.name}}',
      status: 'active',
      closedReason: null,
      maxSubmissions: null,
      autoCloseAt: null,
      createdAt: now.toISOString(),
    });
    expect(copy.id).not.toBe(source.id);
    expect(copy.key).not.toBe(source.key);
    copy.fields![0]!.label = 'changed';
    expect(source.fields![0]!.label).toBe('Name');
  });
});

describe('create input', () => {
  it('defaults the type to contact and trims the name', () => {
    expect(createFormInput.parse({ name: '  Hello ' })).toEqual({ name: 'Hello', type: 'contact' });
  });

  it('counts characters, not UTF-16 units, for the 200 limit', () => {
    expect(createFormInput.safeParse({ name: '😀'.repeat(200) }).success).toBe(true);
    expect(createFormInput.safeParse({ name: '😀'.repeat(201) }).success).toBe(false);
    expect(createFormInput.safeParse({ name: 'a'.repeat(201) }).success).toBe(false);
  });
});
