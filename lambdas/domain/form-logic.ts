import { dayNumberOf, decimalOf } from './answer-values.ts';

/**
 * The form's logic, and the one evaluator of it (docs/forms.md#logic):
 * fields shown or required on earlier answers, pages with jumps, and the
 * walk that decides which pages a person went through and which fields they
 * were asked. The submit path walks it to decide what is stored, the email
 * worker to route notifications, and the hosted page, the embed, the
 * snippet's script and the dashboard's preview bundle this same module to
 * show, hide and step. So it stays pure and small: no Node, no AWS, no zod,
 * no regex from the owner; its only import is answer-values.ts.
 *
 * A rule may only look backwards (at fields earlier in the walk's order), and
 * a page may only jump forwards, so the walk is one pass and ends.
 */

export const CONDITION_OPERATORS = [
  'eq',
  'neq',
  'in',
  'notIn',
  'contains',
  'empty',
  'notEmpty',
  'gt',
  'gte',
  'lt',
  'lte',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** One test of one earlier answer. `value` is a list for `in`/`notIn`, none for `empty`/`notEmpty`. */
export type Condition = {
  field: string;
  op: ConditionOperator;
  value?: string | string[];
};

/** Conditions that must all hold, or of which one must: exactly one of the two keys. */
export type ConditionGroup = { all: Condition[] } | { any: Condition[] };

/** Where a page's rule leads: a later page's id, or `end` (the form is sent from there). */
export const END = 'end';

export type PageRule = { if: ConditionGroup; goTo: string };

/** A step of the form: its fields in order, and the rules that choose the next step. */
export type FormPage = {
  id: string;
  title?: string;
  fields: string[];
  next?: PageRule[];
};

/** What the walk reads of a field (a saved `FieldDefinition` is one). */
export type LogicField = {
  id: string;
  type: string;
  required?: boolean;
  options?: string[];
  showIf?: ConditionGroup;
  requiredIf?: ConditionGroup;
};

/** What the walk reads of a form: its fields, and its pages when it has steps. */
export type LogicForm = {
  fields: readonly LogicField[] | null;
  pages?: readonly FormPage[] | null;
};

/**
 * Answers by field id as posted (repeated names already joined by `,`). A file
 * field's answer is any non-empty text when a file came with it
 * (`answersWithFiles`).
 */
export type Answers = Readonly<Record<string, string | undefined>>;

export interface Walk {
  /** The ids of the pages visited, in order (none for a form without pages). */
  pages: string[];
  /** The fields asked: on a visited page, their `showIf` holding. In the walk's order. */
  active: string[];
  /** The active fields that must be answered: `required`, or their `requiredIf` holding. */
  required: string[];
  /** The last page visited (null for a form without pages): where the person sent the form. */
  endedOn: string | null;
}

/** The operators each field type takes (docs/forms.md#conditions); `empty`/`notEmpty` on every type. */
const TYPE_OPERATORS: Readonly<Record<string, readonly ConditionOperator[]>> = {
  text: ['contains'],
  textarea: ['contains'],
  email: ['contains'],
  number: ['gt', 'gte', 'lt', 'lte'],
  rating: ['gt', 'gte', 'lt', 'lte'],
  date: ['gt', 'gte', 'lt', 'lte'],
  select: ['eq', 'neq', 'in', 'notIn'],
  radio: ['eq', 'neq', 'in', 'notIn'],
  // A hidden field's value comes from the page's URL or the site: no options to name.
  hidden: ['eq', 'neq', 'in', 'notIn', 'contains'],
};

/** The operators a condition on a field of `type` may use. */
export function operatorsFor(type: string): ConditionOperator[] {
  return [
    ...(Object.hasOwn(TYPE_OPERATORS, type) ? TYPE_OPERATORS[type]! : []),
    'empty',
    'notEmpty',
  ];
}

/**
 * How answers and condition values meet: without surrounding spaces, in any
 * case, as the summary matches answers to options (summary-counters.ts).
 */
export function foldAnswer(value: string): string {
  return value.trim().toLowerCase();
}

const isBlank = (value: string | undefined): value is undefined =>
  value === undefined || value.trim() === '';

/** The ordering of an answer for `gt`…`lte`: days for a date field, else a number. */
function measure(type: string | undefined, value: string): number | null {
  const trimmed = value.trim();
  return type === 'date' ? dayNumberOf(trimmed) : decimalOf(trimmed);
}

const single = (value: Condition['value']) => (typeof value === 'string' ? value : undefined);
const listOf = (value: Condition['value']) =>
  Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];

/**
 * Whether one condition holds on `answer`, the answer of a field of `type`
 * (undefined when it was not asked or not answered). A comparison whose
 * answer or value is not a number (a date for a date field) does not hold.
 */
export function conditionHolds(
  condition: Condition,
  type: string | undefined,
  answer: string | undefined,
): boolean {
  const { op, value } = condition;
  if (op === 'empty') return isBlank(answer);
  if (op === 'notEmpty') return !isBlank(answer);
  if (op === 'neq' || op === 'notIn') {
    return !conditionHolds({ ...condition, op: op === 'neq' ? 'eq' : 'in' }, type, answer);
  }
  if (isBlank(answer)) return false;
  const given = foldAnswer(answer);
  switch (op) {
    case 'eq': {
      const wanted = single(value);
      return wanted !== undefined && given === foldAnswer(wanted);
    }
    case 'in':
      return listOf(value).some((each) => given === foldAnswer(each));
    case 'contains': {
      const part = single(value);
      return part !== undefined && part.trim() !== '' && given.includes(foldAnswer(part));
    }
    default: {
      const wanted = single(value);
      const left = measure(type, answer);
      const right = wanted === undefined ? null : measure(type, wanted);
      if (left === null || right === null) return false;
      if (op === 'gt') return left > right;
      if (op === 'gte') return left >= right;
      if (op === 'lt') return left < right;
      return left <= right;
    }
  }
}

/** The conditions of a group, and whether all or one of them must hold. */
export function groupParts(group: ConditionGroup): { every: boolean; conditions: Condition[] } {
  return 'all' in group
    ? { every: true, conditions: group.all }
    : { every: false, conditions: group.any };
}

/**
 * Whether a group holds, reading each condition's answer with `answerOf` and
 * its field's type with `typeOf`.
 */
export function groupHolds(
  group: ConditionGroup,
  answerOf: (fieldId: string) => string | undefined,
  typeOf: (fieldId: string) => string | undefined,
): boolean {
  const { every, conditions } = groupParts(group);
  const one = (condition: Condition) =>
    conditionHolds(condition, typeOf(condition.field), answerOf(condition.field));
  return every ? conditions.every(one) : conditions.some(one);
}

/**
 * The form's pages as the walk takes them: its own, or one page of all its
 * fields in order when it has none (the id is then never shown).
 */
function pagesOf(form: LogicForm): readonly FormPage[] {
  if (form.pages && form.pages.length > 0) return form.pages;
  return [{ id: '', fields: (form.fields ?? []).map((field) => field.id) }];
}

const own = (answers: Answers, id: string): string | undefined =>
  // hasOwn: a field named `constructor` must not read Object.prototype's.
  Object.hasOwn(answers, id) ? answers[id] : undefined;

/**
 * Walks the form with `answers` (docs/forms.md#the-walk): from the first
 * page, each page's fields in order, a field active when its page is visited
 * and its `showIf` holds on the answers of the active fields before it; then
 * the page's `next` rules in order, the first that holds naming the next page
 * (or the end), none holding the page after it, the last page the end. An
 * inactive field's answer counts as no answer for every later rule, so what
 * the walk decides never rests on an answer that will be dropped. A rule that
 * looks forwards or jumps backwards (refused on save) is read as never
 * holding, so even a stored form from before a rule change walks in one pass.
 */
export function walk(form: LogicForm, answers: Answers): Walk {
  const fields = new Map((form.fields ?? []).map((field) => [field.id, field]));
  const pages = pagesOf(form);
  const order = new Map(pages.map((page, index) => [page.id, index]));
  const asked = new Map<string, string | undefined>();
  const answerOf = (id: string) => asked.get(id);
  const typeOf = (id: string) => fields.get(id)?.type;
  const result: Walk = { pages: [], active: [], required: [], endedOn: null };
  let at: number | undefined = 0;
  while (at !== undefined && at < pages.length) {
    const page = pages[at]!;
    result.pages.push(page.id);
    for (const id of page.fields) {
      const field = fields.get(id);
      if (!field || asked.has(id)) continue;
      const shown = !field.showIf || groupHolds(field.showIf, answerOf, typeOf);
      asked.set(id, shown ? own(answers, id) : undefined);
      if (!shown) continue;
      result.active.push(id);
      if (field.required || (field.requiredIf && groupHolds(field.requiredIf, answerOf, typeOf))) {
        result.required.push(id);
      }
    }
    at = nextPage(page, at, pages.length, order, answerOf, typeOf);
  }
  if (form.pages && form.pages.length > 0) result.endedOn = result.pages.at(-1) ?? null;
  else result.pages = [];
  return result;
}

/** The index of the page after `page` (at `index`), or undefined at the end. */
function nextPage(
  page: FormPage,
  index: number,
  count: number,
  order: ReadonlyMap<string, number>,
  answerOf: (id: string) => string | undefined,
  typeOf: (id: string) => string | undefined,
): number | undefined {
  for (const rule of page.next ?? []) {
    const target = rule.goTo === END ? count : order.get(rule.goTo);
    if (target === undefined || target <= index) continue;
    if (groupHolds(rule.if, answerOf, typeOf)) return target;
  }
  return index + 1;
}

/**
 * The answers a walk keeps: those of the active fields, and every name the
 * form does not define (a custom form's, or an extra the site sends, kept as
 * today: docs/submit.md#field-checks). Answers of fields the walk did not ask
 * are left out, whatever they hold.
 */
export function keptAnswers<T extends string>(
  form: LogicForm,
  result: Walk,
  answers: Readonly<Record<string, T>>,
): Record<string, T> {
  const defined = new Set((form.fields ?? []).map((field) => field.id));
  const active = new Set(result.active);
  const kept: Record<string, T> = {};
  for (const [name, value] of Object.entries(answers)) {
    if (defined.has(name) && !active.has(name)) continue;
    // defineProperty: an own data property whatever the name (`__proto__` included).
    Object.defineProperty(kept, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return kept;
}

/**
 * Answers as the walk reads them, files included: a file field counts as
 * answered when a file came under its name (files are not among the text
 * answers).
 */
export function answersWithFiles(
  answers: Readonly<Record<string, string>>,
  files: ReadonlyArray<{ field?: string }>,
): Record<string, string> {
  const withFiles: Record<string, string> = { ...answers };
  for (const file of files) {
    if (file.field && isBlank(own(answers, file.field))) {
      Object.defineProperty(withFiles, file.field, {
        value: 'file',
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return withFiles;
}

/** Whether the form has any logic at all: without it, the walk asks every field (as before). */
export function hasLogic(form: LogicForm): boolean {
  return (
    (form.pages?.length ?? 0) > 0 ||
    (form.fields ?? []).some(
      (field) => field.showIf !== undefined || field.requiredIf !== undefined,
    )
  );
}

/**
 * Whether a field takes a value from outside (docs/forms.md#hidden-fields-and-prefill): a
 * hidden field always, another when its owner allows. Here, not in prefill.ts, so the
 * Share screen's snippet can ask without bundling the answer checks.
 */
export const isPrefillable = (field: { type: string; prefill?: boolean }) =>
  field.type === 'hidden' || (field.prefill === true && field.type !== 'file');
