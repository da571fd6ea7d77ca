import { describe, expect, it } from 'vitest';
import { ServiceError } from '#domain/errors.ts';
import { newForm } from '#domain/form-defaults.ts';
import type { FieldDefinition, FormRecord } from '#domain/form-model.ts';
import { applyFormUpdate, parseFormUpdate } from '#domain/form-update.ts';
import type { Issue } from '#domain/validation-issues.ts';

const now = new Date('2026-03-01T12:00:00.000Z');

const form = (overrides: Partial<FormRecord> = {}): FormRecord => ({
  ...newForm({ teamId: 't1', userId: 'u1', name: 'Quote', type: 'custom', now }),
  // The fixture has a file field, which needs a form that accepts files.
  allowUploads: true,
  ...overrides,
});

/** A PATCH as the handler runs it: parse the body, then apply it. */
const patch = (body: unknown, current = form(), plan: 'free' | 'pro' = 'pro') =>
  applyFormUpdate(current, parseFormUpdate(body), plan, now);

/** The issues of a refused PATCH as `path: message`; fails when it is accepted. */
function refused(body: unknown, current = form()): string[] {
  try {
    patch(body, current);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request');
    return (error.issues as Issue[]).map((issue) => `${issue.path}: ${issue.message}`);
  }
  throw new Error(`expected ${JSON.stringify(body).slice(0, 300)} to be refused`);
}

const FIELDS: FieldDefinition[] = [
  { id: 'kind', type: 'radio', options: ['Personal', 'Business'], required: true },
  { id: 'email', type: 'email', required: true },
  { id: 'company', type: 'text' },
  { id: 'size', type: 'number' },
  { id: 'start', type: 'date' },
  { id: 'plan', type: 'select', options: ['Free', 'Pro', 'Team'] },
  { id: 'terms', type: 'checkbox' },
  { id: 'cv', type: 'file' },
  { id: 'source', type: 'hidden' },
  { id: 'message', type: 'textarea' },
];

const PAGES = [
  {
    id: 'about',
    title: 'About you',
    fields: ['source', 'kind', 'email'],
    next: [{ if: { all: [{ field: 'kind', op: 'eq', value: 'Personal' }] }, goTo: 'done' }],
  },
  { id: 'business', fields: ['company', 'size', 'start', 'plan', 'terms', 'cv'] },
  { id: 'done', fields: ['message'] },
];

/** FIELDS with `changes` applied to the field `id`. */
const withField = (id: string, changes: Record<string, unknown>) =>
  FIELDS.map((field) => (field.id === id ? { ...field, ...changes } : field));

const when = (field: string, op: string, value?: unknown) => ({
  all: [{ field, op, ...(value === undefined ? {} : { value }) }],
});

describe('saving logic: what is accepted', () => {
  it('takes pages, conditions on every type, hidden and prefilled fields, and routing rules', () => {
    const saved = patch({
      fields: FIELDS.map((field) => {
        if (field.id === 'company') return { ...field, showIf: when('kind', 'eq', 'business') };
        if (field.id === 'size')
          return { ...field, requiredIf: when('company', 'contains', 'inc') };
        if (field.id === 'start') return { ...field, showIf: when('size', 'gte', '10') };
        if (field.id === 'plan') return { ...field, showIf: when('start', 'lt', '2027-01-01') };
        if (field.id === 'terms') {
          return {
            ...field,
            showIf: { any: [{ field: 'plan', op: 'in', value: ['pro', 'TEAM'] }] },
          };
        }
        if (field.id === 'cv') return { ...field, showIf: when('terms', 'notEmpty') };
        if (field.id === 'message') return { ...field, prefill: true, showIf: when('cv', 'empty') };
        return field;
      }),
      pages: PAGES,
      notifyRules: [{ if: when('source', 'eq', 'partner'), to: ['sales@example.com'] }],
    });
    expect(saved.pages).toEqual(PAGES);
    expect(saved.fields?.find((field) => field.id === 'message')?.prefill).toBe(true);
    expect(saved.notifyRules).toEqual([
      { if: { all: [{ field: 'source', op: 'eq', value: 'partner' }] }, to: ['sales@example.com'] },
    ]);
  });

  it('keeps a form without logic as it was: no pages, no rules', () => {
    const saved = patch({ fields: FIELDS });
    expect(saved.pages).toBeNull();
    expect(saved.notifyRules).toEqual([]);
    expect(
      patch({ pages: [] }, form({ fields: FIELDS, pages: PAGES as FormRecord['pages'] })).pages,
    ).toBeNull();
  });

  it('lets a page rule name any field of its own page or earlier', () => {
    const pages = [
      PAGES[0]!,
      { ...PAGES[1]!, next: [{ if: when('cv', 'notEmpty'), goTo: 'end' }] },
      PAGES[2]!,
    ];
    expect(patch({ fields: FIELDS, pages }).pages).toEqual(pages);
  });
});

describe('saving logic: what is refused, at its path', () => {
  it('a condition on an unknown field, or on one this change removes', () => {
    expect(refused({ fields: withField('email', { showIf: when('nope', 'empty') }) })).toEqual([
      "fields.1.showIf.all.0.field: Names no field of this form: 'nope'",
    ]);
    // The request keeps the rule on `email` but drops `kind`, which the saved form has.
    const kept = withField('email', { showIf: when('kind', 'notEmpty') });
    const current = form({ fields: FIELDS });
    expect(refused({ fields: kept.filter((field) => field.id !== 'kind') }, current)).toEqual([
      "fields.0.showIf.all.0.field: Names field 'kind', which this change removes from the form: change or remove this rule first",
    ]);
  });

  it('a condition on a later field or on the field itself', () => {
    expect(refused({ fields: withField('kind', { showIf: when('email', 'empty') }) })).toEqual([
      "fields.0.showIf.all.0.field: Names field 'email', which comes after it; a condition may only look at earlier fields (before it on its page, or on an earlier page)",
    ]);
    expect(refused({ fields: withField('email', { requiredIf: when('email', 'empty') }) })).toEqual(
      [
        'fields.1.requiredIf.all.0.field: Names this field itself; a condition may only look at earlier fields',
      ],
    );
  });

  it('reads "earlier" in the pages\' order, not the fields\' list', () => {
    // `source` is listed late in `fields` but is the first field of the first page.
    expect(
      patch({ fields: withField('kind', { showIf: when('source', 'notEmpty') }), pages: PAGES })
        .fields?.[0]?.showIf,
    ).toEqual(when('source', 'notEmpty'));
    expect(
      refused({ fields: withField('company', { showIf: when('message', 'empty') }), pages: PAGES }),
    ).toEqual([
      "fields.2.showIf.all.0.field: Names field 'message', which comes after it; a condition may only look at earlier fields (before it on its page, or on an earlier page)",
    ]);
    const pages = [{ ...PAGES[0]!, next: [{ if: when('company', 'empty'), goTo: 'done' }] }];
    expect(refused({ fields: FIELDS, pages: [...pages, ...PAGES.slice(1)] })).toEqual([
      "pages.0.next.0.if.all.0.field: Names field 'company', which comes after it; a condition may only look at earlier fields (before it on its page, or on an earlier page)",
    ]);
  });

  it('an operator the field type does not take', () => {
    expect(refused({ fields: withField('email', { showIf: when('kind', 'gt', '3') }) })).toEqual([
      "fields.1.showIf.all.0.op: 'gt' does not apply to a radio field ('kind'); it takes: eq, neq, in, notIn, empty, notEmpty",
    ]);
    expect(refused({ fields: withField('size', { showIf: when('company', 'eq', 'x') }) })).toEqual([
      "fields.3.showIf.all.0.op: 'eq' does not apply to a text field ('company'); it takes: contains, empty, notEmpty",
    ]);
    expect(
      refused({ fields: withField('source', { showIf: when('cv', 'contains', 'x') }) }),
    ).toEqual([
      "fields.8.showIf.all.0.op: 'contains' does not apply to a file field ('cv'); it takes: empty, notEmpty",
    ]);
    expect(refused({ fields: withField('cv', { showIf: when('terms', 'eq', 'yes') }) })).toEqual([
      "fields.7.showIf.all.0.op: 'eq' does not apply to a checkbox field ('terms'); it takes: empty, notEmpty",
    ]);
    expect(refused({ fields: withField('email', { showIf: when('kind', 'like', 'x') }) })).toEqual([
      'fields.1.showIf.all.0.op: Must be one of: eq, neq, in, notIn, contains, empty, notEmpty, gt, gte, lt, lte',
    ]);
  });

  it('a value not among the options, compared as answers are', () => {
    expect(
      patch({ fields: withField('email', { showIf: when('kind', 'eq', ' business ') }) }).fields,
    ).toBeTruthy();
    expect(
      refused({ fields: withField('email', { showIf: when('kind', 'eq', 'Company') }) }),
    ).toEqual([
      "fields.1.showIf.all.0.value: 'Company' is not an option of 'kind' (its options: 'Personal', 'Business')",
    ]);
    expect(
      refused({ fields: withField('terms', { showIf: when('plan', 'notIn', ['Pro', 'Gold']) }) }),
    ).toEqual([
      "fields.6.showIf.all.0.value.1: 'Gold' is not an option of 'plan' (its options: 'Free', 'Pro', 'Team')",
    ]);
  });

  it('a value of the wrong kind for its operator', () => {
    const problems = (field: string, op: string, value?: unknown) =>
      refused({ fields: withField('message', { showIf: when(field, op, value) }) });
    expect(problems('size', 'gt', 'ten')).toEqual([
      'fields.9.showIf.all.0.value: Must be a number, like 3 or 2.5',
    ]);
    expect(problems('start', 'lt', '31/12/2026')).toEqual([
      'fields.9.showIf.all.0.value: Must be a date written YYYY-MM-DD, like 2026-12-31',
    ]);
    expect(problems('start', 'lt', '2026-02-30')).toHaveLength(1);
    expect(problems('email', 'empty', 'x')).toEqual([
      "fields.9.showIf.all.0.value: 'empty' takes no value",
    ]);
    expect(problems('kind', 'eq')).toEqual(['fields.9.showIf.all.0.value: Must have a value']);
    expect(problems('kind', 'in')).toEqual(['fields.9.showIf.all.0.value: Must list the values']);
    expect(problems('kind', 'eq', ['Personal', 'Business'])).toEqual([
      "fields.9.showIf.all.0.value: 'eq' takes one value, not a list",
    ]);
  });

  it('a group that is not exactly one of all or any, or holds 0 or more than 10 conditions', () => {
    const group = (showIf: unknown) => refused({ fields: withField('email', { showIf }) });
    const both = { all: [{ field: 'kind', op: 'empty' }], any: [{ field: 'kind', op: 'empty' }] };
    expect(group(both)).toEqual([
      'fields.1.showIf: Must have exactly one of "all" (every condition holds) or "any" (one holds)',
    ]);
    expect(group({})).toHaveLength(1);
    expect(group({ all: [] })).toEqual(['fields.1.showIf.all: Must have at least one condition']);
    const eleven = Array.from({ length: 11 }, () => ({ field: 'kind', op: 'notEmpty' }));
    expect(group({ any: eleven })).toEqual([
      'fields.1.showIf.any: Must have at most 10 conditions',
    ]);
    expect(
      patch({ fields: withField('email', { showIf: { any: eleven.slice(1) } }) }),
    ).toBeTruthy();
    expect(group({ every: [] })[0]).toMatch(/^fields\.1\.showIf\.every: Not a key/);
  });

  it('a jump backwards, to its own page, or to an unknown page', () => {
    const body = (goTo: string) => ({
      fields: FIELDS,
      pages: [PAGES[0], { ...PAGES[1], next: [{ if: when('kind', 'notEmpty'), goTo }] }, PAGES[2]],
    });
    const jump = (goTo: string) => refused(body(goTo));
    expect(jump('about')).toEqual([
      "pages.1.next.0.goTo: Goes back to page 'about'; a page may only jump forward",
    ]);
    expect(jump('business')).toEqual([
      "pages.1.next.0.goTo: Goes to its own page 'business'; a page may only jump forward",
    ]);
    expect(jump('thanks')).toEqual(["pages.1.next.0.goTo: Names no page of this form: 'thanks'"]);
    expect(patch(body('end')).pages?.[1]?.next?.[0]?.goTo).toBe('end');
  });

  it('a field on two pages or on none, a page naming no field, a page id twice', () => {
    const twice = [PAGES[0], { ...PAGES[1], fields: [...PAGES[1]!.fields, 'email'] }, PAGES[2]];
    expect(refused({ fields: FIELDS, pages: twice })).toEqual([
      "pages.1.fields.6: Field 'email' is already on page 'about'; a field goes on exactly one page",
    ]);
    const none = [PAGES[0], PAGES[1], { ...PAGES[2], fields: ['nope'] }];
    expect(refused({ fields: FIELDS, pages: none })).toEqual([
      "pages.2.fields.0: Names no field of this form: 'nope'",
      "fields.9: Field 'message' is on no page: add it to one of the pages",
    ]);
    // A field added without a page: refused at the field.
    const current = form({ fields: FIELDS, pages: PAGES as FormRecord['pages'] });
    expect(refused({ fields: [...FIELDS, { id: 'phone', type: 'tel' }] }, current)).toEqual([
      "fields.10: Field 'phone' is on no page: add it to one of the pages",
    ]);
    expect(refused({ pages: [...PAGES, { ...PAGES[2], fields: [] }] }, current)).toContain(
      'pages.3.fields: A page must hold at least one field',
    );
    expect(refused({ fields: FIELDS, pages: [...PAGES, PAGES[2]] })).toContain(
      'pages.3.id: Duplicate page id "done"',
    );
    expect(refused({ pages: [{ ...PAGES[0], id: 'end' }] }, current)).toContain(
      'pages.0.id: "end" is where a rule ends the form',
    );
    expect(refused({ fields: null, pages: PAGES })).toContain(
      'pages: A form that takes any field (fields: null) has no pages: define its fields first',
    );
  });

  it('a condition on a field whose page no answer can reach, saying so', () => {
    const always = {
      any: [
        { field: 'kind', op: 'empty' },
        { field: 'kind', op: 'notEmpty' },
      ],
    };
    const pages = [{ ...PAGES[0], next: [{ if: always, goTo: 'done' }] }, PAGES[1], PAGES[2]];
    expect(
      refused({ fields: withField('message', { showIf: when('company', 'empty') }), pages }),
    ).toEqual([
      "fields.9.showIf.all.0.field: Names field 'company' on page 'business', which no answer can reach (the rules before it always jump past it)",
    ]);
    // The same jump on a condition that may fail leaves the page reachable.
    const sometimes = [{ ...PAGES[0], next: [{ if: when('kind', 'empty'), goTo: 'done' }] }];
    expect(
      patch({
        fields: withField('message', { showIf: when('company', 'empty') }),
        pages: [...sometimes, PAGES[1], PAGES[2]],
      }).pages,
    ).toHaveLength(3);
  });

  it('more than the limits: 10 pages, 10 rules a page, 10 routing rules, 4 addresses a rule', () => {
    const fields = Array.from({ length: 11 }, (_, i) => ({ id: `f${i}`, type: 'text' }));
    const pages = fields.map((field) => ({ id: `p${field.id}`, fields: [field.id] }));
    expect(refused({ fields, pages })).toEqual(['pages: Must have at most 10 pages']);
    expect(patch({ fields: fields.slice(1), pages: pages.slice(1) }).pages).toHaveLength(10);
    const rule = { if: when('f0', 'notEmpty'), goTo: 'end' };
    expect(
      refused({
        fields: fields.slice(0, 2),
        pages: [{ id: 'a', fields: ['f0', 'f1'], next: Array(11).fill(rule) }],
      }),
    ).toEqual(['pages.0.next: Must have at most 10 rules']);
    const route = { if: when('f0', 'notEmpty'), to: ['a@example.com'] };
    expect(refused({ fields, notifyRules: Array(11).fill(route) })).toEqual([
      'notifyRules: Must have at most 10 rules',
    ]);
    const five = ['a', 'b', 'c', 'd', 'e'].map((name) => `${name}@example.com`);
    expect(refused({ fields, notifyRules: [{ ...route, to: five }] })).toEqual([
      'notifyRules.0.to: Must be at most 4 addresses',
    ]);
    expect(refused({ fields, notifyRules: [{ ...route, to: [] }] })).toEqual([
      'notifyRules.0.to: Must name at least one address',
    ]);
    expect(refused({ fields, notifyRules: [{ ...route, to: ['not an address'] }] })).toEqual([
      'notifyRules.0.to.0: Must be an email address',
    ]);
    expect(
      refused({
        fields: [
          ...fields,
          ...fields.map((f) => ({ ...f, id: `g${f.id}` })),
          ...fields.map((f) => ({ ...f, id: `h${f.id}` })),
        ],
      }),
    ).toEqual(['fields: Too big: expected array to have <=30 items']);
  });

  it('a routing rule on an unknown field or with an operator its type does not take', () => {
    expect(
      refused({
        fields: FIELDS,
        notifyRules: [{ if: when('budget', 'gt', '5'), to: ['a@example.com'] }],
      }),
    ).toEqual(["notifyRules.0.if.all.0.field: Names no field of this form: 'budget'"]);
    expect(
      refused({
        fields: FIELDS,
        notifyRules: [{ if: when('email', 'gt', '5'), to: ['a@example.com'] }],
      }),
    ).toEqual([
      "notifyRules.0.if.all.0.op: 'gt' does not apply to a email field ('email'); it takes: contains, empty, notEmpty",
    ]);
    // A field removed while a routing rule names it.
    const current = form({
      fields: FIELDS,
      notifyRules: [{ if: when('plan', 'eq', 'Pro') as never, to: ['a@example.com'] }],
    });
    expect(refused({ fields: FIELDS.filter((field) => field.id !== 'plan') }, current)).toEqual([
      "notifyRules.0.if.all.0.field: Names field 'plan', which this change removes from the form: change or remove this rule first",
    ]);
  });

  it('prefill on a file field; hidden fields take maxLength up to the answer limit', () => {
    expect(refused({ fields: withField('cv', { prefill: true }) })).toEqual([
      'fields.7.prefill: Not allowed on a file field',
    ]);
    expect(refused({ fields: withField('source', { maxLength: 10_001 }) })).toHaveLength(1);
    expect(refused({ fields: withField('source', { options: ['a'] }) })).toEqual([
      'fields.8.options: Not allowed on a hidden field',
    ]);
  });

  it('routing needs Pro; turning it off does not', () => {
    const route = { if: when('kind', 'notEmpty'), to: ['a@example.com'] };
    const current = form({ fields: FIELDS });
    expect(() => patch({ notifyRules: [route] }, current, 'free')).toThrow(/Pro plan/);
    expect(patch({ notifyRules: [] }, current, 'free').notifyRules).toEqual([]);
  });

  it('says the first problem in the error message, with its path', () => {
    try {
      patch({
        fields: FIELDS,
        pages: [
          PAGES[0],
          { ...PAGES[1], next: [{ if: when('kind', 'empty'), goTo: 'about' }] },
          PAGES[2],
        ],
      });
      throw new Error('expected a refusal');
    } catch (error) {
      expect((error as Error).message).toBe(
        "The form settings are not consistent: pages.1.next.0.goTo: Goes back to page 'about'; a page may only jump forward",
      );
    }
  });
});
