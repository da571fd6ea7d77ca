import { describe, expect, it } from 'vitest';
import type { FieldDefinition } from '#domain/form-model.ts';
import { sampleAnswers } from '#domain/test-submission.ts';

const now = new Date('2026-11-22T10:00:00.000Z');

describe('sampleAnswers', () => {
  it('answers every field type within the field’s own rules, and leaves files out', () => {
    const fields: FieldDefinition[] = [
      { id: 'short', type: 'text', maxLength: 4 },
      { id: 'mail', type: 'email' },
      { id: 'count', type: 'number', min: 3, max: 9 },
      { id: 'upper', type: 'number', max: -5 },
      { id: 'day', type: 'date' },
      { id: 'pick', type: 'select', options: ['Red', 'Blue'] },
      { id: 'one', type: 'radio', options: ['A'] },
      { id: 'tick', type: 'checkbox' },
      { id: 'many', type: 'checkbox', options: ['X', 'Y'] },
      { id: 'stars', type: 'rating', max: 7 },
      { id: 'defaultStars', type: 'rating' },
      { id: 'phone', type: 'tel' },
      { id: 'site', type: 'url' },
      { id: 'notes', type: 'textarea', maxLength: 10 },
      { id: 'cv', type: 'file' },
    ];
    expect(sampleAnswers(fields, now)).toEqual({
      short: 'Samp',
      mail: 'test@example.com',
      count: '3',
      upper: '-5',
      day: '2026-11-22',
      pick: 'Red',
      one: 'A',
      tick: 'on',
      many: 'X',
      stars: '7',
      defaultStars: '5',
      phone: '+1 555 0100',
      site: 'https://example.com',
      notes: 'This is a ',
    });
  });

  it('gives forms that accept any fields a name, an email and a message', () => {
    expect(Object.keys(sampleAnswers(null, now))).toEqual(['name', 'email', 'message']);
    expect(sampleAnswers([], now)).toEqual({});
  });
});
