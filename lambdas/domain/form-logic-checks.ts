import { dayNumberOf, decimalOf } from './answer-values.ts';
import {
  type Condition,
  type ConditionGroup,
  END,
  type FormPage,
  foldAnswer,
  groupParts,
  type LogicField,
  operatorsFor,
} from './form-logic.ts';
import type { Issue } from './validation-issues.ts';

/**
 * The checks of a form's logic that need the whole form, run on the form as
 * it would be saved (docs/forms.md#what-a-save-refuses): each problem an
 * issue at its exact path, in words a person understands. Pure and free of
 * zod, so the dashboard's builder can show the same words before it saves.
 */

export interface LogicSettings {
  fields: readonly LogicField[] | null;
  pages: readonly FormPage[] | null;
  notifyRules: readonly { if: ConditionGroup }[];
}

/** Where a field stands: its place in the walk's order, and its page (when the form has pages). */
interface Place {
  order: number;
  page: number | undefined;
}

const quoted = (value: string) => `'${value}'`;
const MAX_LISTED_OPTIONS = 10;

/**
 * Every problem of the logic of `form`. `before` is the form as saved, so a
 * rule naming a field this change removes says so.
 */
export function logicIssues(
  form: LogicSettings,
  before?: { fields: readonly { id: string }[] | null },
): Issue[] {
  const issues: Issue[] = [];
  const add = (path: string, message: string) => issues.push({ path, code: 'custom', message });
  const fields = form.fields ?? [];
  const pages = form.pages ?? [];
  if (form.fields === null && pages.length > 0) {
    add(
      'pages',
      'A form that takes any field (fields: null) has no pages: define its fields first',
    );
  }
  const byId = new Map(fields.map((field) => [field.id, field]));
  const places = placesOf(fields, pages, add);
  const reachable = reachablePages(pages);

  pages.forEach((page, index) => {
    (page.next ?? []).forEach((rule, ruleIndex) => {
      const path = `pages.${index}.next.${ruleIndex}`;
      const target = pages.findIndex((each) => each.id === rule.goTo);
      if (rule.goTo !== END && target < 0) {
        add(`${path}.goTo`, `Names no page of this form: ${quoted(rule.goTo)}`);
      } else if (rule.goTo !== END && target <= index) {
        add(
          `${path}.goTo`,
          target === index
            ? `Goes to its own page ${quoted(rule.goTo)}; a page may only jump forward`
            : `Goes back to page ${quoted(rule.goTo)}; a page may only jump forward`,
        );
      }
      // The rule is read once the page's fields are answered: any of them may be named.
      const after = places.pageEnds[index] ?? 0;
      checkGroup(rule.if, `${path}.if`, after);
    });
  });
  fields.forEach((field, index) => {
    const place = places.of.get(field.id);
    if (!place) return;
    if (field.showIf) checkGroup(field.showIf, `fields.${index}.showIf`, place.order, field.id);
    if (field.requiredIf) {
      checkGroup(field.requiredIf, `fields.${index}.requiredIf`, place.order, field.id);
    }
  });
  form.notifyRules.forEach((rule, index) => {
    checkGroup(rule.if, `notifyRules.${index}.if`, Number.POSITIVE_INFINITY);
  });
  return issues;

  /** The conditions of a group read at `position` of the walk's order (by `self`, a field's own). */
  function checkGroup(group: ConditionGroup, path: string, position: number, self?: string) {
    const { every, conditions } = groupParts(group);
    conditions.forEach((condition, index) => {
      checkCondition(condition, `${path}.${every ? 'all' : 'any'}.${index}`, position, self);
    });
  }

  function checkCondition(condition: Condition, path: string, position: number, self?: string) {
    const field = byId.get(condition.field);
    const name = quoted(condition.field);
    if (!field) {
      const removed = before?.fields?.some((each) => each.id === condition.field) ?? false;
      add(
        `${path}.field`,
        removed
          ? `Names field ${name}, which this change removes from the form: change or remove this rule first`
          : `Names no field of this form: ${name}`,
      );
      return;
    }
    const place = places.of.get(field.id);
    // A field on no page is refused where it is; its conditions say nothing more.
    if (!place) return;
    if (condition.field === self) {
      add(`${path}.field`, 'Names this field itself; a condition may only look at earlier fields');
      return;
    }
    if (place.order >= position) {
      add(
        `${path}.field`,
        `Names field ${name}, which comes after it; a condition may only look at earlier fields (before it on its page, or on an earlier page)`,
      );
      return;
    }
    if (place.page !== undefined && !reachable[place.page]) {
      add(
        `${path}.field`,
        `Names field ${name} on page ${quoted(pages[place.page]!.id)}, which no answer can reach (the rules before it always jump past it)`,
      );
      return;
    }
    const operators = operatorsFor(field.type);
    if (!operators.includes(condition.op)) {
      add(
        `${path}.op`,
        `${quoted(condition.op)} does not apply to a ${field.type} field (${name}); it takes: ${operators.join(', ')}`,
      );
      return;
    }
    for (const [at, problem] of valueProblems(condition, field)) add(`${path}.value${at}`, problem);
  }
}

/** The places of the fields in the walk's order; a field on two pages or none is an issue. */
function placesOf(
  fields: readonly LogicField[],
  pages: readonly FormPage[],
  add: (path: string, message: string) => void,
): { of: Map<string, Place>; pageEnds: number[] } {
  const of = new Map<string, Place>();
  const known = new Set(fields.map((field) => field.id));
  if (pages.length === 0) {
    fields.forEach((field, order) => {
      if (!of.has(field.id)) of.set(field.id, { order, page: undefined });
    });
    return { of, pageEnds: [] };
  }
  const pageEnds: number[] = [];
  let order = 0;
  pages.forEach((page, pageIndex) => {
    page.fields.forEach((id, index) => {
      const path = `pages.${pageIndex}.fields.${index}`;
      if (!known.has(id)) {
        add(path, `Names no field of this form: ${quoted(id)}`);
        return;
      }
      const placed = of.get(id);
      if (placed) {
        add(
          path,
          `Field ${quoted(id)} is already on page ${quoted(pages[placed.page!]!.id)}; a field goes on exactly one page`,
        );
        return;
      }
      of.set(id, { order: order++, page: pageIndex });
    });
    pageEnds.push(order);
  });
  fields.forEach((field, index) => {
    if (!of.has(field.id)) {
      add(`fields.${index}`, `Field ${quoted(field.id)} is on no page: add it to one of the pages`);
    }
  });
  return { of, pageEnds };
}

/**
 * Which pages some answers can reach: the first; a later page a rule of a
 * reachable page names; and the page after a reachable one unless a rule
 * before always holds (an `any` group with both `empty` and `notEmpty` of one
 * field, how "always" is written).
 */
function reachablePages(pages: readonly FormPage[]): boolean[] {
  const reachable = pages.map((_, index) => index === 0);
  pages.forEach((page, index) => {
    if (!reachable[index]) return;
    let fallsThrough = true;
    for (const rule of page.next ?? []) {
      const target = pages.findIndex((each) => each.id === rule.goTo);
      if (target > index) reachable[target] = true;
      if (alwaysHolds(rule.if)) {
        fallsThrough = false;
        break;
      }
    }
    if (fallsThrough && index + 1 < pages.length) reachable[index + 1] = true;
  });
  return reachable;
}

function alwaysHolds(group: ConditionGroup): boolean {
  const { every, conditions } = groupParts(group);
  if (every) return false;
  const ops = (op: string) =>
    new Set(conditions.filter((each) => each.op === op).map((each) => each.field));
  const empty = ops('empty');
  return [...ops('notEmpty')].some((field) => empty.has(field));
}

/** Problems of a condition's value for its operator and field, as [path suffix, message]. */
function valueProblems(condition: Condition, field: LogicField): [string, string][] {
  const { op, value } = condition;
  if (op === 'empty' || op === 'notEmpty') {
    return value === undefined ? [] : [['', `${quoted(op)} takes no value`]];
  }
  if (value === undefined) {
    return [['', op === 'in' || op === 'notIn' ? 'Must list the values' : 'Must have a value']];
  }
  const list = op === 'in' || op === 'notIn';
  if (!list && Array.isArray(value)) return [['', `${quoted(op)} takes one value, not a list`]];
  const values = Array.isArray(value) ? value : [value];
  const at = (index: number) => (Array.isArray(value) ? `.${index}` : '');
  const problems: [string, string][] = [];
  values.forEach((each, index) => {
    const problem = oneValueProblem(op, each, field);
    if (problem) problems.push([at(index), problem]);
  });
  return problems;
}

function oneValueProblem(op: string, value: string, field: LogicField): string | undefined {
  if (op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte') {
    if (field.type === 'date') {
      return dayNumberOf(value.trim()) === null
        ? 'Must be a date written YYYY-MM-DD, like 2026-12-31'
        : undefined;
    }
    return decimalOf(value.trim()) === null ? 'Must be a number, like 3 or 2.5' : undefined;
  }
  const options = field.options ?? [];
  if ((field.type === 'select' || field.type === 'radio') && options.length > 0) {
    const folded = foldAnswer(value);
    if (!options.some((option) => foldAnswer(option) === folded)) {
      const listed = options.slice(0, MAX_LISTED_OPTIONS).map(quoted).join(', ');
      const more = options.length > MAX_LISTED_OPTIONS ? ', …' : '';
      return `${quoted(value)} is not an option of ${quoted(field.id)} (its options: ${listed}${more})`;
    }
  }
  return undefined;
}
