import { describe, expect, it } from 'vitest';
import {
  entriesOfForm,
  fieldsIn,
  formOfEntries,
  isPage,
  withoutField,
  withoutPage,
  withPageBreak,
} from '#app/fields-layout.ts';
import { checkFields, type FieldDraft } from '#app/fields-model.ts';
import { logicProblemOf } from '#app/logic-problems.ts';
import type { Form } from '#app/model.ts';
import { fromApi } from '#app/problem-sentences.ts';

/** A form with every kind of logic, as the API stores it. */
const FORM = {
  fields: [
    { id: 'plan', type: 'select', label: 'Plan', options: ['Free', 'Team'], required: true },
    {
      id: 'seats',
      type: 'number',
      label: 'Seats',
      min: 1,
      showIf: { all: [{ field: 'plan', op: 'eq', value: 'Team' }] },
    },
    {
      id: 'why',
      type: 'textarea',
      label: 'Why',
      requiredIf: {
        any: [
          { field: 'seats', op: 'gte', value: '50' },
          { field: 'plan', op: 'in', value: ['Team'] },
        ],
      },
    },
    { id: 'source', type: 'hidden', maxLength: 40 },
    { id: 'email', type: 'email', label: 'Email', prefill: true },
  ],
  pages: [
    {
      id: 'start',
      title: 'Your plan',
      fields: ['plan'],
      next: [{ if: { all: [{ field: 'plan', op: 'eq', value: 'Free' }] }, goTo: 'contact' }],
    },
    { id: 'team', fields: ['seats', 'why', 'source'] },
    { id: 'contact', title: 'Contact', fields: ['email'] },
  ],
} as unknown as Pick<Form, 'fields' | 'pages'>;

describe('the fields screen keeps the logic it is given', () => {
  it('reads and writes back fields, rules, hidden and prefilled fields and pages as saved', () => {
    expect(formOfEntries(entriesOfForm(FORM))).toEqual(FORM);
  });

  it('a label changed keeps every rule; an id changed is followed by the rules that name it', () => {
    const entries = entriesOfForm(FORM).map((entry) =>
      isPage(entry) || entry.id !== 'plan' ? entry : { ...entry, label: 'Which plan', id: 'tier' },
    );
    const saved = formOfEntries(entries);
    expect(saved.fields[0]).toMatchObject({ id: 'tier', label: 'Which plan' });
    expect(saved.fields[1]!.showIf).toEqual({ all: [{ field: 'tier', op: 'eq', value: 'Team' }] });
    expect(saved.pages![0]!.next![0]!.if).toEqual({
      all: [{ field: 'tier', op: 'eq', value: 'Free' }],
    });
    expect(saved.pages![0]!.fields).toEqual(['tier']);
    // The route's own schema takes the fields as they are.
    expect(checkFields(fieldsIn(entries)).problems).toEqual([]);
  });

  it('a field removed leaves its rules naming its saved id (the save refuses them there)', () => {
    const entries = entriesOfForm(FORM);
    const plan = fieldsIn(entries)[0]!;
    const saved = formOfEntries(withoutField(entries, plan.key));
    expect(saved.fields.map((field) => field.id)).toEqual(['seats', 'why', 'source', 'email']);
    expect(saved.fields[0]!.showIf).toEqual({ all: [{ field: 'plan', op: 'eq', value: 'Team' }] });
  });

  it('a first page break splits the form in two; a page taken out sends its jumps to the end', () => {
    const plain = entriesOfForm({ fields: FORM.fields, pages: null });
    const { entries } = withPageBreak(plain);
    expect(formOfEntries(entries).pages).toEqual([
      { id: 'page-1', fields: ['plan', 'seats', 'why', 'source', 'email'] },
      { id: 'page-2', fields: [] },
    ]);
    const withPages = entriesOfForm(FORM);
    const contact = withPages.filter(isPage)[2]!;
    const pages = formOfEntries(withoutPage(withPages, contact.key)).pages!;
    expect(pages.map((page) => page.id)).toEqual(['start', 'team']);
    expect(pages[0]!.next![0]!.goTo).toBe('end');
    expect(pages[1]!.fields).toEqual(['seats', 'why', 'source', 'email']);
  });
});

describe('the save’s refusals at the rule they concern', () => {
  const entries = entriesOfForm(FORM);
  const fields = fieldsIn(entries) as FieldDraft[];
  const pages = entries.filter(isPage);

  it('a condition’s field, in words that name fields by their labels', () => {
    const problem = logicProblemOf(
      entries,
      fromApi({
        path: 'fields.1.showIf.all.0.field',
        code: 'custom',
        message:
          "Names field 'why', which comes after it; a condition may only look at earlier fields",
      }),
    )!;
    const condition = fields[1]!.showIf!.conditions[0]!;
    expect(problem.control).toBe(`${fields[1]!.key}-showIf-${condition.key}-field`);
    expect(problem.text).toBe(
      'Names field “Why”, which comes after it; a condition may only look at earlier fields',
    );
    expect(problem.summary).toMatch(/^Field 2 \(Seats\), show only if: names field “Why”/);
  });

  it('a jump’s page, named as the screen names pages', () => {
    const problem = logicProblemOf(
      entries,
      fromApi({
        path: 'pages.1.next.0.goTo',
        code: 'custom',
        message: "Goes back to page 'start'; a page may only jump forward",
      }),
    );
    // The second page has no jumps: the problem is said at its title.
    expect(problem!.control).toBe(`${pages[1]!.key}-title`);
    const first = logicProblemOf(
      entries,
      fromApi({
        path: 'pages.0.next.0.goTo',
        code: 'custom',
        message: "Names no page of this form: 'x'",
      }),
    )!;
    expect(first.control).toBe(`${pages[0]!.key}-${pages[0]!.next[0]!.key}-goTo`);
    expect(problem!.text).toBe(
      'Goes back to page “Page 1: Your plan”; a page may only jump forward',
    );
  });

  it('a value the schema refuses, in plain words, never schema text', () => {
    const problem = logicProblemOf(
      entries,
      fromApi({
        path: 'fields.2.requiredIf.any.0.value',
        code: 'too_small',
        message: 'Too small: expected string to have >=1 characters',
      }),
    )!;
    expect(problem.text).toBe('Must not be empty');
    expect(problem.control).toMatch(/-requiredIf-cond-.*-value$/);
  });
});
