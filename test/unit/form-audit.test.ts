import { describe, expect, it } from 'vitest';
import { formChangeNotes, listed } from '#domain/form-audit.ts';
import { newForm } from '#domain/form-defaults.ts';
import type { FormRecord } from '#domain/form-model.ts';

const before: FormRecord = newForm({
  teamId: 't1',
  userId: 'u1',
  name: 'Contact',
  type: 'contact',
  now: new Date('2026-11-29T10:00:00Z'),
});
const saved = (changes: Partial<FormRecord>): FormRecord => ({ ...before, ...changes });

describe('what a save of a form records in the audit trail', () => {
  it('records nothing for a save that changes none of notifications, fields, auto-reply, design or retention', () => {
    expect(formChangeNotes(before, saved({ name: 'Renamed', emoji: '📮' }))).toEqual([]);
    expect(formChangeNotes(before, saved({ fields: structuredClone(before.fields) }))).toEqual([]);
    // A stored field's keys may come back in another order: the same field all the same.
    const reordered = before.fields!.map((field) =>
      Object.fromEntries(Object.entries(field).reverse()),
    ) as FormRecord['fields'];
    expect(formChangeNotes(before, saved({ fields: reordered }))).toEqual([]);
  });

  it('a Cc change says which addresses were added and removed, not only the new list', () => {
    const was = saved({ notifyCc: ['ops@example.com', 'old@example.com'] });
    const notes = formChangeNotes(was, {
      ...was,
      notifyCc: ['sales@example.com', 'ops@example.com'],
    });
    expect(notes).toEqual([
      {
        action: 'form.notify_email_changed',
        details: {
          notifyEmail: '',
          previous: '',
          notifyCc: 'sales@example.com, ops@example.com',
          previousCc: 'ops@example.com, old@example.com',
          ccAdded: 'sales@example.com',
          ccRemoved: 'old@example.com',
        },
      },
    ]);
    expect(formChangeNotes(before, saved({ notifyEmail: 'desk@example.com' }))).toEqual([
      {
        action: 'form.notify_email_changed',
        details: { notifyEmail: 'desk@example.com', previous: '' },
      },
    ]);
  });

  it('fields: added, removed and changed by label (by id without one), and a new order', () => {
    const [name, email, message] = before.fields!;
    const notes = formChangeNotes(
      before,
      saved({
        fields: [
          message!,
          { ...name!, placeholder: 'Ada Lovelace' },
          { id: 'phone', type: 'tel', label: 'Phone' },
          { id: 'guests', type: 'number' },
        ],
      }),
    );
    expect(notes).toEqual([
      {
        action: 'form.fields_changed',
        details: {
          fields: 4,
          added: 'Phone, guests',
          removed: email!.label,
          changed: name!.label,
          reordered: true,
        },
      },
    ]);
    expect(formChangeNotes(before, saved({ fields: null }))[0]?.details).toMatchObject({
      fields: 'any',
    });
  });

  it('auto-reply: turned on or off, and which parts changed, never their text', () => {
    const notes = formChangeNotes(
      before,
      saved({
        autoreplyEnabled: true,
        autoreplySubject: 'Thanks, {{field.name}}',
        autoreplyBody: 'We read every message.',
      }),
    );
    expect(notes).toEqual([
      {
        action: 'form.autoreply_changed',
        details: { enabled: true, turned: 'on', changed: 'subject, text' },
      },
    ]);
    expect(JSON.stringify(notes)).not.toContain('We read');
    expect(formChangeNotes(before, saved({ autoreplyHourlyLimit: 5 }))[0]?.details).toEqual({
      enabled: false,
      changed: 'hourly limit',
    });
  });

  it('design: which parts changed, never their text; retention with the days before and after', () => {
    const notes = formChangeNotes(
      before,
      saved({ design: { ...before.design, theme: 'dark', title: 'Say hello' }, retentionDays: 30 }),
    );
    expect(notes).toEqual([
      { action: 'form.design_changed', details: { changed: 'theme, title' } },
      { action: 'form.retention_changed', details: { retentionDays: 30 } },
    ]);
  });

  it('lists ten names at most, then counts the rest', () => {
    const names = Array.from({ length: 13 }, (_, i) => `f${i}`);
    expect(listed(names)).toBe('f0, f1, f2, f3, f4, f5, f6, f7, f8, f9 and 3 more');
  });
});
