import { describe, expect, it } from 'vitest';
import { ServiceError } from '#domain/errors.ts';
import { fieldPattern } from '#domain/field-definitions.ts';
import { FIELD_TYPES, type FieldDefinition, type FieldType } from '#domain/form-model.ts';
import { parseFormUpdate } from '#domain/form-update.ts';
import type { Issue } from '#domain/validation-issues.ts';

function issuesFor(fields: unknown): Issue[] {
  try {
    parseFormUpdate({ fields });
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return (error as ServiceError).issues as Issue[];
  }
  throw new Error(`expected ${JSON.stringify(fields).slice(0, 200)} to be refused`);
}

const paths = (fields: unknown) => issuesFor(fields).map((issue) => issue.path);
const saved = (fields: unknown): FieldDefinition[] | null | undefined =>
  parseFormUpdate({ fields }).fields;

/** The smallest valid field of each type (select and radio need options). */
const minimal = (type: FieldType, extra: Record<string, unknown> = {}) => ({
  id: 'f',
  type,
  ...(type === 'select' || type === 'radio' ? { options: ['A'] } : {}),
  ...extra,
});

/** Type-specific properties and a valid value for each. */
const SPECIFIC: Record<string, unknown> = {
  minLength: 1,
  maxLength: 10,
  pattern: '[a-z]+',
  min: 0,
  max: 5,
  options: ['A', 'B'],
};

const ALLOWED: Record<FieldType, string[]> = {
  text: ['minLength', 'maxLength', 'pattern'],
  textarea: ['maxLength'],
  number: ['min', 'max'],
  rating: ['min', 'max'],
  select: ['options'],
  radio: ['options'],
  email: [],
  date: [],
  checkbox: [],
  tel: [],
  url: [],
  file: [],
  hidden: ['maxLength'],
};

describe('field definitions: common properties', () => {
  it('every type is accepted with just an id (select and radio also need options)', () => {
    for (const type of FIELD_TYPES) expect(saved([minimal(type)])).toHaveLength(1);
  });

  it('every type takes label, required, placeholder and helpText within their bounds', () => {
    for (const type of FIELD_TYPES) {
      const common = {
        label: 'x'.repeat(200),
        required: true,
        placeholder: 'x'.repeat(200),
        helpText: 'x'.repeat(500),
      };
      expect(saved([minimal(type, common)])![0]).toMatchObject(common);
      expect(paths([minimal(type, { label: 'x'.repeat(201) })])).toEqual(['fields.0.label']);
      expect(paths([minimal(type, { placeholder: 'x'.repeat(201) })])).toEqual([
        'fields.0.placeholder',
      ]);
      expect(paths([minimal(type, { helpText: 'x'.repeat(501) })])).toEqual(['fields.0.helpText']);
      expect(paths([minimal(type, { required: 'yes' })])).toEqual(['fields.0.required']);
    }
  });

  it('ids start with a letter, use letters, digits, - and _, and are at most 64 long', () => {
    for (const id of ['a', 'Email', 'first_name', 'q-1', `a${'b'.repeat(63)}`]) {
      expect(saved([{ id, type: 'text' }])![0]!.id).toBe(id);
    }
    for (const id of ['', '1st', '_gotcha', '-x', 'first name', 'é', `a${'b'.repeat(64)}`, 7]) {
      expect(paths([{ id, type: 'text' }])).toEqual(['fields.0.id']);
    }
    expect(paths([{ type: 'text' }])).toEqual(['fields.0.id']);
  });

  it('a duplicate id is refused at the duplicate; ids are case-sensitive', () => {
    const fields = [
      { id: 'email', type: 'email' },
      { id: 'name', type: 'text' },
      { id: 'email', type: 'text' },
    ];
    expect(paths(fields)).toEqual(['fields.2.id']);
    expect(
      saved([
        { id: 'email', type: 'email' },
        { id: 'Email', type: 'email' },
      ]),
    ).toHaveLength(2);
  });

  it('an unknown or missing type is refused at the type', () => {
    expect(paths([{ id: 'a', type: 'password' }])).toEqual(['fields.0.type']);
    expect(paths([{ id: 'a' }])).toEqual(['fields.0.type']);
  });

  it('a form takes up to 30 fields, an empty list, or null', () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `f${i}`, type: 'text' }));
    expect(saved(many(30))).toHaveLength(30);
    expect(paths(many(31))).toEqual(['fields']);
    expect(saved([])).toEqual([]);
    expect(saved(null)).toBeNull();
  });
});

describe('field definitions: properties by type', () => {
  for (const type of FIELD_TYPES) {
    it(`${type} takes ${ALLOWED[type].join(', ') || 'no type-specific property'} and refuses the rest by name`, () => {
      for (const [property, value] of Object.entries(SPECIFIC)) {
        const field = minimal(type, { [property]: value });
        if (ALLOWED[type].includes(property)) {
          expect(saved([field])![0]).toMatchObject({ [property]: value });
        } else {
          const issues = issuesFor([field]);
          expect(issues.map((issue) => issue.path)).toEqual([`fields.0.${property}`]);
          expect(issues[0]!.message).toContain(type);
        }
      }
    });
  }
});

describe('field definitions: text and textarea lengths', () => {
  it('minLength is 0 to 10,000 and maxLength 1 to 10,000, whole numbers', () => {
    expect(saved([{ id: 'a', type: 'text', minLength: 0, maxLength: 10_000 }])![0]).toMatchObject({
      minLength: 0,
      maxLength: 10_000,
    });
    expect(paths([{ id: 'a', type: 'text', minLength: -1 }])).toEqual(['fields.0.minLength']);
    expect(paths([{ id: 'a', type: 'text', maxLength: 0 }])).toEqual(['fields.0.maxLength']);
    expect(paths([{ id: 'a', type: 'text', maxLength: 10_001 }])).toEqual(['fields.0.maxLength']);
    expect(paths([{ id: 'a', type: 'text', minLength: 1.5 }])).toEqual(['fields.0.minLength']);
    expect(paths([{ id: 'a', type: 'textarea', maxLength: 10_001 }])).toEqual([
      'fields.0.maxLength',
    ]);
  });

  it('minLength may equal maxLength but not exceed it', () => {
    expect(saved([{ id: 'a', type: 'text', minLength: 5, maxLength: 5 }])).toHaveLength(1);
    expect(paths([{ id: 'a', type: 'text', minLength: 6, maxLength: 5 }])).toEqual([
      'fields.0.minLength',
    ]);
  });
});

describe('field definitions: text pattern', () => {
  it('keeps a pattern that compiles and is safe', () => {
    const pattern = '[A-Z]{2}\\d{4}';
    expect(saved([{ id: 'a', type: 'text', pattern }])![0]!.pattern).toBe(pattern);
  });

  it('refuses a pattern that does not compile', () => {
    for (const pattern of ['(', '[a-', '*a', 'a{2,1}']) {
      expect(paths([{ id: 'a', type: 'text', pattern }])).toEqual(['fields.0.pattern']);
    }
  });

  it('refuses patterns that could backtrack catastrophically', () => {
    for (const pattern of ['(a+)+$', '(x+x+)+y', '(\\d*)*', '^(([a-z])+.)+[A-Z]([a-z])+$']) {
      const issues = issuesFor([{ id: 'a', type: 'text', pattern }]);
      expect(issues.map((issue) => issue.path)).toEqual(['fields.0.pattern']);
      expect(issues[0]!.message).toMatch(/exponential/);
    }
  });

  it('takes up to 500 characters and refuses an empty pattern', () => {
    expect(saved([{ id: 'a', type: 'text', pattern: 'a'.repeat(500) }])).toHaveLength(1);
    expect(paths([{ id: 'a', type: 'text', pattern: 'a'.repeat(501) }])).toEqual([
      'fields.0.pattern',
    ]);
    expect(paths([{ id: 'a', type: 'text', pattern: '' }])).toEqual(['fields.0.pattern']);
  });

  it('a pattern matches the whole answer, by code point', () => {
    const re = fieldPattern('[a-z]+|[0-9]+');
    expect(re.test('abc')).toBe(true);
    expect(re.test('123')).toBe(true);
    expect(re.test('abc123')).toBe(false);
    expect(fieldPattern('.').test('😀')).toBe(true);
  });
});

describe('field definitions: number, rating and choices', () => {
  it('number takes any finite min and max with min not above max', () => {
    expect(saved([{ id: 'n', type: 'number', min: -1.5, max: 2.5 }])![0]).toMatchObject({
      min: -1.5,
      max: 2.5,
    });
    expect(saved([{ id: 'n', type: 'number', min: 3, max: 3 }])).toHaveLength(1);
    expect(paths([{ id: 'n', type: 'number', min: 4, max: 3 }])).toEqual(['fields.0.min']);
    expect(paths([{ id: 'n', type: 'number', max: '3' }])).toEqual(['fields.0.max']);
  });

  it('rating max is 3 to 10 and defaults to 5 on save', () => {
    expect(saved([{ id: 'r', type: 'rating' }])![0]).toEqual({ id: 'r', type: 'rating', max: 5 });
    expect(saved([{ id: 'r', type: 'rating', max: 3 }])![0]!.max).toBe(3);
    expect(saved([{ id: 'r', type: 'rating', max: 10 }])![0]!.max).toBe(10);
    for (const max of [2, 11, 4.5]) {
      expect(paths([{ id: 'r', type: 'rating', max }])).toEqual(['fields.0.max']);
    }
  });

  it('rating min is 0 or 1, left out unless given (1, the stars of the specification)', () => {
    expect(saved([{ id: 'r', type: 'rating', min: 0, max: 10 }])![0]).toEqual({
      id: 'r',
      type: 'rating',
      min: 0,
      max: 10,
    });
    expect(saved([{ id: 'r', type: 'rating', min: 1 }])![0]).toMatchObject({ min: 1, max: 5 });
    expect(saved([{ id: 'r', type: 'rating' }])![0]).not.toHaveProperty('min');
    for (const min of [-1, 2, 0.5, '0']) {
      expect(paths([{ id: 'r', type: 'rating', min }])).toEqual(['fields.0.min']);
    }
  });

  for (const type of ['select', 'radio'] as const) {
    it(`${type} needs 1 to 100 distinct options of 1 to 200 characters`, () => {
      const n = (count: number) => Array.from({ length: count }, (_, i) => `Option ${i}`);
      expect(saved([{ id: 'c', type, options: n(1) }])).toHaveLength(1);
      expect(saved([{ id: 'c', type, options: n(100) }])![0]!.options).toHaveLength(100);
      expect(saved([{ id: 'c', type, options: ['x'.repeat(200)] }])).toHaveLength(1);
      expect(paths([{ id: 'c', type }])).toEqual(['fields.0.options']);
      expect(paths([{ id: 'c', type, options: [] }])).toEqual(['fields.0.options']);
      expect(paths([{ id: 'c', type, options: n(101) }])).toEqual(['fields.0.options']);
      expect(paths([{ id: 'c', type, options: [''] }])).toEqual(['fields.0.options.0']);
      expect(paths([{ id: 'c', type, options: ['x'.repeat(201)] }])).toEqual([
        'fields.0.options.0',
      ]);
      expect(paths([{ id: 'c', type, options: ['Yes', 'No', 'Yes'] }])).toEqual([
        'fields.0.options.2',
      ]);
    });
  }

  it('issue paths point at the field by its index', () => {
    const fields = [
      { id: 'a', type: 'text' },
      { id: 'b', type: 'email' },
      { id: 'c', type: 'select', options: ['A'], pattern: 'x' },
    ];
    expect(paths(fields)).toEqual(['fields.2.pattern']);
  });
});
