import { describe, expect, it } from 'vitest';
import {
  answersWithFiles,
  type Condition,
  conditionHolds,
  foldAnswer,
  hasLogic,
  keptAnswers,
  type LogicForm,
  operatorsFor,
  walk,
} from '#domain/form-logic.ts';

const holds = (condition: Omit<Condition, 'field'>, type: string, answer: string | undefined) =>
  conditionHolds({ field: 'f', ...condition }, type, answer);

describe('conditions', () => {
  it('compares choices case- and space-insensitively, as answers are', () => {
    expect(foldAnswer('  Gold Plan ')).toBe('gold plan');
    // Inner spaces are the answer's own, as the summary reads them.
    expect(holds({ op: 'eq', value: 'Gold Plan' }, 'select', 'gold  plan')).toBe(false);
    expect(holds({ op: 'eq', value: 'Yes' }, 'radio', ' yes ')).toBe(true);
    expect(holds({ op: 'eq', value: 'Yes' }, 'radio', 'No')).toBe(false);
    expect(holds({ op: 'neq', value: 'Yes' }, 'radio', 'YES')).toBe(false);
    expect(holds({ op: 'in', value: ['Pro', 'Team'] }, 'select', 'team')).toBe(true);
    expect(holds({ op: 'notIn', value: ['Pro', 'Team'] }, 'select', 'Free')).toBe(true);
    expect(holds({ op: 'contains', value: 'URGENT' }, 'text', 'this is urgent!')).toBe(true);
    expect(holds({ op: 'contains', value: 'late' }, 'textarea', 'on time')).toBe(false);
  });

  it('reads an unanswered field as empty: eq and in fail, neq and notIn hold', () => {
    for (const answer of [undefined, '', '   ']) {
      expect(holds({ op: 'empty' }, 'text', answer)).toBe(true);
      expect(holds({ op: 'notEmpty' }, 'text', answer)).toBe(false);
      expect(holds({ op: 'eq', value: 'Yes' }, 'radio', answer)).toBe(false);
      expect(holds({ op: 'in', value: ['Yes'] }, 'radio', answer)).toBe(false);
      expect(holds({ op: 'neq', value: 'Yes' }, 'radio', answer)).toBe(true);
      expect(holds({ op: 'notIn', value: ['Yes'] }, 'radio', answer)).toBe(true);
      expect(holds({ op: 'gt', value: '0' }, 'number', answer)).toBe(false);
      expect(holds({ op: 'lte', value: '0' }, 'number', answer)).toBe(false);
    }
  });

  it('compares numbers and ratings as numbers, not as text', () => {
    expect(holds({ op: 'gt', value: '9' }, 'number', '10')).toBe(true);
    expect(holds({ op: 'gte', value: '10' }, 'number', ' 10.0 ')).toBe(true);
    expect(holds({ op: 'lt', value: '1e3' }, 'number', '999')).toBe(true);
    expect(holds({ op: 'lte', value: '-2' }, 'number', '-3')).toBe(true);
    expect(holds({ op: 'gt', value: '6' }, 'rating', '7')).toBe(true);
    expect(holds({ op: 'lt', value: '7' }, 'rating', '10')).toBe(false);
    // Not a number: no comparison holds, either way round.
    expect(holds({ op: 'gt', value: '1' }, 'number', 'many')).toBe(false);
    expect(holds({ op: 'lt', value: '1' }, 'number', '0x10')).toBe(false);
    expect(holds({ op: 'lt', value: 'lots' }, 'number', '1')).toBe(false);
  });

  it('compares dates as days, and a date that is no day holds nothing', () => {
    expect(holds({ op: 'gt', value: '2026-01-31' }, 'date', '2026-02-01')).toBe(true);
    expect(holds({ op: 'lt', value: '2026-12-01' }, 'date', '2026-11-30')).toBe(true);
    expect(holds({ op: 'gte', value: '2024-02-29' }, 'date', '2024-02-29')).toBe(true);
    expect(holds({ op: 'gt', value: '2026-01-01' }, 'date', '2026-02-30')).toBe(false);
    expect(holds({ op: 'lt', value: '2026-01-01' }, 'date', '1/2/2025')).toBe(false);
  });

  it('counts a file field answered when a file came under its name', () => {
    const answers = answersWithFiles({ name: 'Ada', cv: '' }, [{ field: 'cv' }, {}]);
    expect(answers).toEqual({ name: 'Ada', cv: 'file' });
    expect(holds({ op: 'notEmpty' }, 'file', answers.cv)).toBe(true);
  });

  it('gives each type its operators, empty and notEmpty on every type', () => {
    expect(operatorsFor('radio')).toEqual(['eq', 'neq', 'in', 'notIn', 'empty', 'notEmpty']);
    expect(operatorsFor('date')).toEqual(['gt', 'gte', 'lt', 'lte', 'empty', 'notEmpty']);
    expect(operatorsFor('text')).toEqual(['contains', 'empty', 'notEmpty']);
    expect(operatorsFor('checkbox')).toEqual(['empty', 'notEmpty']);
    expect(operatorsFor('file')).toEqual(['empty', 'notEmpty']);
    expect(operatorsFor('constructor')).toEqual(['empty', 'notEmpty']);
  });
});

/** A three-step form: `about`, then `company` only for business, then `done`. */
const STEPS: LogicForm = {
  fields: [
    { id: 'kind', type: 'radio', required: true, options: ['Personal', 'Business'] },
    { id: 'email', type: 'email', required: true },
    { id: 'company', type: 'text', required: true },
    {
      id: 'size',
      type: 'number',
      showIf: { all: [{ field: 'company', op: 'notEmpty' }] },
    },
    {
      id: 'invoice',
      type: 'checkbox',
      requiredIf: { all: [{ field: 'size', op: 'gt', value: '50' }] },
    },
    { id: 'message', type: 'textarea' },
  ],
  pages: [
    {
      id: 'about',
      fields: ['kind', 'email'],
      next: [{ if: { all: [{ field: 'kind', op: 'eq', value: 'Personal' }] }, goTo: 'done' }],
    },
    { id: 'business', fields: ['company', 'size', 'invoice'] },
    { id: 'done', fields: ['message'] },
  ],
};

describe('walk', () => {
  it('asks every field of a form without logic, and names no page', () => {
    const form: LogicForm = {
      fields: [
        { id: 'a', type: 'text', required: true },
        { id: 'b', type: 'text' },
      ],
    };
    expect(hasLogic(form)).toBe(false);
    expect(walk(form, {})).toEqual({
      pages: [],
      active: ['a', 'b'],
      required: ['a'],
      endedOn: null,
    });
    expect(walk({ fields: null }, { x: '1' })).toEqual({
      pages: [],
      active: [],
      required: [],
      endedOn: null,
    });
  });

  it('skips a page when the first rule that holds jumps past it', () => {
    const result = walk(STEPS, { kind: 'personal', email: 'a@b.co', company: 'Acme' });
    expect(result).toEqual({
      pages: ['about', 'done'],
      active: ['kind', 'email', 'message'],
      required: ['kind', 'email'],
      endedOn: 'done',
    });
  });

  it('goes to the next page when no rule holds', () => {
    const result = walk(STEPS, { kind: 'Business', company: 'Acme', size: '80' });
    expect(result.pages).toEqual(['about', 'business', 'done']);
    expect(result.active).toEqual(['kind', 'email', 'company', 'size', 'invoice', 'message']);
    expect(result.required).toEqual(['kind', 'email', 'company', 'invoice']);
  });

  it('requires a field only while its requiredIf holds, and reverts when the answer changes', () => {
    expect(walk(STEPS, { kind: 'Business', company: 'A', size: '80' }).required).toContain(
      'invoice',
    );
    expect(walk(STEPS, { kind: 'Business', company: 'A', size: '8' }).required).not.toContain(
      'invoice',
    );
  });

  it('reads an inactive field as unanswered for every rule after it', () => {
    // `size` is hidden without a company, so its 80 cannot make `invoice` required.
    const result = walk(STEPS, { kind: 'Business', company: ' ', size: '80' });
    expect(result.active).not.toContain('size');
    expect(result.required).not.toContain('invoice');
    // An answer on a skipped page is no answer either.
    const skipped = walk(
      {
        ...STEPS,
        fields: [
          ...STEPS.fields!,
          { id: 'thanks', type: 'text', showIf: { any: [{ field: 'company', op: 'notEmpty' }] } },
        ],
        pages: STEPS.pages!.map((page) =>
          page.id === 'done' ? { ...page, fields: ['message', 'thanks'] } : page,
        ),
      },
      { kind: 'Personal', company: 'Acme' },
    );
    expect(skipped.active).toEqual(['kind', 'email', 'message']);
  });

  it('ends where a rule says end, and at the last page otherwise', () => {
    const form: LogicForm = {
      fields: STEPS.fields,
      pages: [
        {
          id: 'about',
          fields: ['kind', 'email'],
          next: [
            { if: { all: [{ field: 'kind', op: 'eq', value: 'Nope' }] }, goTo: 'done' },
            { if: { any: [{ field: 'kind', op: 'eq', value: 'Personal' }] }, goTo: 'end' },
          ],
        },
        { id: 'business', fields: ['company', 'size', 'invoice'] },
        { id: 'done', fields: ['message'] },
      ],
    };
    const ended = walk(form, { kind: 'Personal', message: 'hi' });
    expect(ended.pages).toEqual(['about']);
    expect(ended.endedOn).toBe('about');
    expect(ended.active).toEqual(['kind', 'email']);
    expect(walk(form, { kind: 'Business' }).endedOn).toBe('done');
  });

  it('reads a backwards jump, an unknown page or a forward-looking rule as never holding', () => {
    const form: LogicForm = {
      fields: [
        { id: 'a', type: 'text', showIf: { all: [{ field: 'b', op: 'notEmpty' }] } },
        { id: 'b', type: 'text' },
      ],
      pages: [
        { id: 'one', fields: ['a'] },
        {
          id: 'two',
          fields: ['b'],
          next: [
            { if: { all: [{ field: 'b', op: 'notEmpty' }] }, goTo: 'one' },
            { if: { all: [{ field: 'b', op: 'notEmpty' }] }, goTo: 'two' },
            { if: { all: [{ field: 'b', op: 'notEmpty' }] }, goTo: 'nowhere' },
          ],
        },
      ],
    };
    expect(walk(form, { a: 'x', b: 'y' })).toEqual({
      pages: ['one', 'two'],
      active: ['b'],
      required: [],
      endedOn: 'two',
    });
  });

  it('reads answers as own properties only', () => {
    const form: LogicForm = {
      fields: [
        { id: 'constructor', type: 'text' },
        {
          id: 'toString',
          type: 'text',
          showIf: { all: [{ field: 'constructor', op: 'notEmpty' }] },
        },
      ],
    };
    expect(walk(form, {}).active).toEqual(['constructor']);
    expect(walk(form, { constructor: 'yes' } as Record<string, string>).active).toEqual([
      'constructor',
      'toString',
    ]);
  });
});

describe('keptAnswers', () => {
  it('keeps the active answers and names the form does not define, drops the rest', () => {
    const answers = { kind: 'Personal', email: 'a@b.co', company: 'Acme', size: '9', utm: 'x' };
    const result = walk(STEPS, answers);
    expect(keptAnswers(STEPS, result, answers)).toEqual({
      kind: 'Personal',
      email: 'a@b.co',
      utm: 'x',
    });
  });

  it('keeps a name like __proto__ as an own answer', () => {
    const answers = JSON.parse('{"__proto__":"p","kind":"Business"}') as Record<string, string>;
    const kept = keptAnswers(STEPS, walk(STEPS, answers), answers);
    expect(Object.keys(kept)).toEqual(['__proto__', 'kind']);
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
  });
});
