import { describe, expect, it } from 'vitest';
import { checkAnswers, invalidMarker } from '#domain/answer-checks.ts';
import type { FieldDefinition } from '#domain/form-model.ts';
import { ANSWER_REASONS, type AnswerReason } from '#domain/submission-model.ts';

type Field = Omit<FieldDefinition, 'id'>;

/** The reason one answer to one field gets, or null when it passes. */
function reasonFor(field: Field, value: string | undefined) {
  const data: Record<string, string> = value === undefined ? {} : { f: value };
  const problems = checkAnswers([{ id: 'f', ...field }], data, []);
  expect(problems.length).toBeLessThanOrEqual(1);
  return problems[0]?.reason ?? null;
}

const accepts = (field: Field, values: string[]) => {
  for (const value of values) expect(reasonFor(field, value), value).toBeNull();
};
const refuses = (field: Field, values: string[], reason: AnswerReason) => {
  for (const value of values) expect(reasonFor(field, value), value).toBe(reason);
};

describe('checkAnswers: general rules', () => {
  it('checks nothing when the form has no field definitions', () => {
    expect(checkAnswers(null, { email: 'nope' }, [])).toEqual([]);
  });

  it('reports a missing or blank required answer as required', () => {
    refuses({ type: 'text', required: true }, ['', '   ', '\n'], 'required');
    expect(reasonFor({ type: 'text', required: true }, undefined)).toBe('required');
  });

  it('lets a blank optional answer through without format checks', () => {
    accepts({ type: 'email' }, ['', '  ']);
    expect(reasonFor({ type: 'number', min: 5 }, undefined)).toBeNull();
  });

  it('keeps and ignores answers that have no definition', () => {
    const fields: FieldDefinition[] = [{ id: 'email', type: 'email' }];
    expect(checkAnswers(fields, { email: 'a@b.co', extra: 'anything' }, [])).toEqual([]);
  });

  it('orders problems by field definition order, one per field', () => {
    const fields: FieldDefinition[] = [
      { id: 'b', type: 'number', required: true, max: 1 },
      { id: 'a', type: 'email', required: true },
      { id: 'c', type: 'text', minLength: 5, pattern: '[0-9]+' },
    ];
    expect(checkAnswers(fields, { a: 'bad', b: '2', c: 'ab' }, [])).toEqual([
      { fieldId: 'b', reason: 'too_large' },
      { fieldId: 'a', reason: 'invalid_email' },
      { fieldId: 'c', reason: 'too_short' },
    ]);
  });

  it('does not read inherited properties for a field named constructor or toString', () => {
    const fields: FieldDefinition[] = [
      { id: 'constructor', type: 'text', required: true },
      { id: 'toString', type: 'number' },
    ];
    expect(checkAnswers(fields, {}, [])).toEqual([{ fieldId: 'constructor', reason: 'required' }]);
    expect(checkAnswers(fields, { constructor: 'x', toString: 'y' }, [])).toEqual([
      { fieldId: 'toString', reason: 'invalid_number' },
    ]);
  });

  it('can produce every reason code', () => {
    const fields: FieldDefinition[] = [
      { id: 'required', type: 'text', required: true },
      { id: 'invalid_email', type: 'email' },
      { id: 'invalid_number', type: 'number' },
      { id: 'too_small', type: 'number', min: 1 },
      { id: 'too_large', type: 'number', max: 1 },
      { id: 'too_short', type: 'text', minLength: 2 },
      { id: 'too_long', type: 'textarea', maxLength: 1 },
      { id: 'pattern_mismatch', type: 'text', pattern: 'x' },
      { id: 'invalid_option', type: 'select', options: ['A'] },
      { id: 'invalid_date', type: 'date' },
      { id: 'invalid_url', type: 'url' },
      { id: 'invalid_tel', type: 'tel' },
      { id: 'invalid_rating', type: 'rating' },
    ];
    const data = {
      invalid_email: 'x',
      invalid_number: 'x',
      too_small: '0',
      too_large: '2',
      too_short: 'a',
      too_long: 'ab',
      pattern_mismatch: 'y',
      invalid_option: 'B',
      invalid_date: 'x',
      invalid_url: 'x',
      invalid_tel: 'x',
      invalid_rating: '0',
    };
    const problems = checkAnswers(fields, data, []);
    expect(problems.map((problem) => problem.reason)).toEqual([...ANSWER_REASONS]);
    for (const problem of problems) expect(problem.reason).toBe(problem.fieldId);
  });
});

describe('checkAnswers: file', () => {
  const fields: FieldDefinition[] = [{ id: 'cv', type: 'file', required: true }];

  it('requires an uploaded file under the field id', () => {
    expect(checkAnswers(fields, { cv: 'cv.pdf' }, [])).toEqual([
      { fieldId: 'cv', reason: 'required' },
    ]);
    expect(checkAnswers(fields, {}, [{ field: 'other' }])).toEqual([
      { fieldId: 'cv', reason: 'required' },
    ]);
    expect(checkAnswers(fields, {}, [{ field: 'cv' }])).toEqual([]);
  });

  it('is fine without a file when optional', () => {
    expect(checkAnswers([{ id: 'cv', type: 'file' }], {}, [])).toEqual([]);
  });
});

describe('checkAnswers: email', () => {
  const email = { type: 'email' } as const;

  it('accepts practical addresses, ignoring surrounding spaces', () => {
    accepts(email, ['a@b.co', 'first.last+tag@mail.example.org', ' a@b.co ', 'ü@bücher.de']);
  });

  it('refuses addresses without one @, a local part or a dotted domain', () => {
    refuses(
      email,
      ['plain', 'a@b', '@b.co', 'a@@b.co', 'a@b@c.co', 'a b@c.co', 'a@.co', 'a@b.', 'a@b..co'],
      'invalid_email',
    );
  });

  it('accepts 254 characters and refuses 255', () => {
    const at = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;
    expect(at(254)).toHaveLength(254);
    accepts(email, [at(254)]);
    refuses(email, [at(255)], 'invalid_email');
  });
});

describe('checkAnswers: number', () => {
  it('accepts finite decimal numbers', () => {
    accepts({ type: 'number' }, ['0', '-1', '+2', '3.5', '.5', '5.', '1e3', ' 42 ']);
  });

  it('refuses what is not a finite decimal number', () => {
    refuses(
      { type: 'number' },
      ['abc', '1,5', '0x10', '0b1', 'Infinity', 'NaN', '1e999', '1 2', '-', '.', 'e5'],
      'invalid_number',
    );
  });

  it('checks min and max inclusively', () => {
    const range = { type: 'number', min: 0, max: 20 } as const;
    accepts(range, ['0', '20', '0.0', '19.99']);
    refuses(range, ['-0.01', '-1'], 'too_small');
    refuses(range, ['20.01', '21'], 'too_large');
  });
});

describe('checkAnswers: text and textarea', () => {
  it('checks minLength and maxLength just inside and outside, in code points', () => {
    const text = { type: 'text', minLength: 2, maxLength: 3 } as const;
    accepts(text, ['ab', 'abc', '😀😀', '😀😀😀']);
    refuses(text, ['a', '😀'], 'too_short');
    refuses(text, ['abcd', '😀😀😀😀'], 'too_long');
  });

  it('matches the pattern against the whole answer', () => {
    const code = { type: 'text', pattern: '[A-Z]{2}[0-9]+' } as const;
    accepts(code, ['AB1', 'XY123']);
    refuses(code, ['ab1', 'AB', 'xAB1', 'AB1x'], 'pattern_mismatch');
  });

  it('treats alternation in a pattern as a whole-answer group', () => {
    const choice = { type: 'text', pattern: 'yes|no' } as const;
    accepts(choice, ['yes', 'no']);
    refuses(choice, ['yesno', 'nope', 'eyes'], 'pattern_mismatch');
  });

  it('matches code points with the u flag', () => {
    accepts({ type: 'text', pattern: '.' }, ['😀']);
  });

  it('reports length before pattern', () => {
    expect(reasonFor({ type: 'text', maxLength: 2, pattern: '[0-9]+' }, 'abc')).toBe('too_long');
  });

  it('skips a stored pattern that no longer compiles', () => {
    accepts({ type: 'text', pattern: '(' }, ['anything']);
  });

  it('checks textarea maxLength just inside and outside', () => {
    accepts({ type: 'textarea', maxLength: 5 }, ['12345', 'a\nb\nc']);
    refuses({ type: 'textarea', maxLength: 5 }, ['123456'], 'too_long');
  });
});

describe('checkAnswers: date', () => {
  it('accepts real calendar dates, leap days included', () => {
    accepts({ type: 'date' }, ['2024-02-29', '2000-02-29', '2025-12-31', '2025-01-01']);
  });

  it('refuses dates that do not exist or are not YYYY-MM-DD', () => {
    refuses(
      { type: 'date' },
      [
        '2025-02-29',
        '1900-02-29',
        '2025-02-30',
        '2025-04-31',
        '2025-13-01',
        '2025-00-10',
        '2025-01-00',
        '2025-1-01',
        '01/02/2025',
        '2025-01-01T00:00',
      ],
      'invalid_date',
    );
  });
});

describe('checkAnswers: options', () => {
  it('accepts exactly one option for select and radio', () => {
    for (const type of ['select', 'radio'] as const) {
      const field = { type, options: ['Yes', 'No', 'Maybe'] };
      accepts(field, ['Yes', 'Maybe']);
      refuses(field, ['yes', 'Yes,No', ' Yes', 'Other'], 'invalid_option');
    }
  });

  it('accepts any value for a checkbox without options', () => {
    accepts({ type: 'checkbox' }, ['on', 'yes', 'true']);
    refuses({ type: 'checkbox', required: true }, [''], 'required');
  });

  it('requires every comma-separated part of a checkbox to be an option', () => {
    const field: Field = { type: 'checkbox', options: ['Red', 'Green', 'Blue'] };
    accepts(field, ['Red', 'Red,Blue', 'Blue,Red,Green']);
    refuses(field, ['Pink', 'Red,Pink', 'Red,', 'Red, Blue', 'RedBlue'], 'invalid_option');
  });

  it('matches checkbox options that contain a comma', () => {
    const field: Field = { type: 'checkbox', options: ['Yes, please', 'No'] };
    accepts(field, ['Yes, please', 'No,Yes, please']);
    refuses(field, ['Yes'], 'invalid_option');
  });
});

describe('checkAnswers: rating', () => {
  it('accepts integers 1 to 5 by default', () => {
    accepts({ type: 'rating' }, ['1', '5', ' 3 ']);
    refuses({ type: 'rating' }, ['0', '6', '2.5', '-1', 'five', '05'], 'invalid_rating');
  });

  it('uses the field max', () => {
    accepts({ type: 'rating', max: 10 }, ['10']);
    refuses({ type: 'rating', max: 10 }, ['11'], 'invalid_rating');
    refuses({ type: 'rating', max: 3 }, ['4'], 'invalid_rating');
  });

  it('takes 0 to max with min 0 (a 0–10 question), and still no leading zero', () => {
    accepts({ type: 'rating', min: 0, max: 10 }, ['0', ' 0 ', '6', '10']);
    refuses({ type: 'rating', min: 0, max: 10 }, ['-0', '00', '07', '11', '-1'], 'invalid_rating');
    refuses({ type: 'rating', min: 1, max: 10 }, ['0'], 'invalid_rating');
  });
});

describe('checkAnswers: tel', () => {
  it('accepts 5 to 32 characters of digits and phone punctuation', () => {
    accepts({ type: 'tel' }, ['12345', '+1 (555) 123-4567', '030.1234.5678', '1'.repeat(32)]);
  });

  it('refuses too few digits, too many characters or letters', () => {
    refuses(
      { type: 'tel' },
      ['1234', '12-34', '(1234)', '1'.repeat(33), '555-CALL-NOW', '+1 555 123 4567 ext 9'],
      'invalid_tel',
    );
  });
});

describe('checkAnswers: url', () => {
  it('accepts http and https URLs', () => {
    accepts({ type: 'url' }, ['https://example.com', 'http://example.com/a?b=c#d', 'HTTPS://X.IO']);
  });

  it('refuses other schemes and what does not parse', () => {
    refuses(
      { type: 'url' },
      [
        'example.com',
        'www.example.com',
        'ftp://example.com',
        'javascript:alert(1)',
        'https:example.com',
        'https://',
        'https://exa mple.com',
        'http://[::1',
      ],
      'invalid_url',
    );
  });
});

describe('invalidMarker', () => {
  it('is the JSON list of fieldId and reason', () => {
    const marker = invalidMarker([
      { fieldId: 'email', reason: 'invalid_email' },
      { fieldId: 'age', reason: 'too_small' },
    ]);
    expect(JSON.parse(marker)).toEqual([
      { fieldId: 'email', reason: 'invalid_email' },
      { fieldId: 'age', reason: 'too_small' },
    ]);
  });

  it('carries nothing but fieldId and reason', () => {
    const extra = { fieldId: 'a', reason: 'required', note: 'x' } as never;
    expect(invalidMarker([extra])).toBe('[{"fieldId":"a","reason":"required"}]');
  });
});
