import {
  type Condition,
  type ConditionGroup,
  type ConditionOperator,
  END,
  type FormPage,
  groupParts,
  operatorsFor,
} from '#domain/form-logic.ts';

/**
 * The fields builder's logic as its menus hold it (docs/dashboard.md#logic):
 * conditions name fields and pages by their drafts' keys, not their ids, so
 * an id that follows its label, or is retyped, keeps every rule that names
 * it. Turned back into the API's `showIf`, `requiredIf` and `pages` on save.
 */

export interface ConditionDraft {
  key: string;
  /** The key of the field it reads (or `?id` for an id no field of the form has). */
  field: string;
  op: ConditionOperator;
  /** One value for most tests, the chosen ones for `in`/`notIn`, none for `empty`/`notEmpty`. */
  value: string[];
}

export interface GroupDraft {
  /** Every condition must hold (`all`), or one of them (`any`). */
  every: boolean;
  conditions: ConditionDraft[];
}

export interface RuleDraft {
  key: string;
  when: GroupDraft;
  /** A later page's key, or `end`. */
  goTo: string;
}

/** A page break: the page that starts there, its title and its jumps. */
export interface PageDraft {
  kind: 'page';
  key: string;
  /** The page's id as saved (new pages get one of their own). */
  id: string;
  title: string;
  next: RuleDraft[];
}

let made = 0;
export const newLogicKey = (kind: string) =>
  `${kind}-${Date.now().toString(36)}-${(made++).toString(36)}`;

/** The key a saved id is read back as, when no field of the form has it. */
const UNKNOWN = '?';

/** A saved group as the menus hold it; `keyOf` finds a field's key by its id. */
export function groupDraftOf(
  group: ConditionGroup | undefined,
  keyOf: (id: string) => string | undefined,
): GroupDraft | null {
  if (!group) return null;
  const { every, conditions } = groupParts(group);
  return {
    every,
    conditions: conditions.map((condition) => ({
      key: newLogicKey('cond'),
      field: keyOf(condition.field) ?? `${UNKNOWN}${condition.field}`,
      op: condition.op,
      value:
        condition.value === undefined
          ? []
          : Array.isArray(condition.value)
            ? [...condition.value]
            : [condition.value],
    })),
  };
}

/** A value list takes `in`/`notIn`; `empty`/`notEmpty` take none; the rest one. */
export const takesList = (op: ConditionOperator) => op === 'in' || op === 'notIn';
export const takesNoValue = (op: ConditionOperator) => op === 'empty' || op === 'notEmpty';

/** A group as the API takes it; `idOf` names a field's key by its id now. */
export function groupOf(group: GroupDraft, idOf: (key: string) => string): ConditionGroup {
  const conditions = group.conditions.map((draft): Condition => {
    const field = draft.field.startsWith(UNKNOWN) ? draft.field.slice(1) : idOf(draft.field);
    if (takesNoValue(draft.op)) return { field, op: draft.op };
    if (takesList(draft.op)) {
      return { field, op: draft.op, value: draft.value.filter((each) => each.trim() !== '') };
    }
    return { field, op: draft.op, value: draft.value[0] ?? '' };
  });
  return group.every ? { all: conditions } : { any: conditions };
}

/** What the menus need of a field: its key, type, words and options. */
export interface LogicFieldView {
  key: string;
  id: string;
  type: string;
  name: string;
  options: string[];
}

/** A new condition on `field` (the nearest earlier one): the first test its type takes. */
export function newCondition(field: LogicFieldView): ConditionDraft {
  const op = operatorsFor(field.type)[0]!;
  return { key: newLogicKey('cond'), field: field.key, op, value: firstValue(op, field) };
}

/** The value a condition starts with for `op` on `field`: its first option, when it has options. */
export function firstValue(op: ConditionOperator, field: LogicFieldView | undefined): string[] {
  if (takesNoValue(op) || takesList(op)) return [];
  return field && field.options.length > 0 ? [field.options[0]!] : [];
}

/** A test in words, by the type of the field it reads. */
export function operatorWords(op: ConditionOperator, type: string): string {
  if (type === 'checkbox' && (op === 'empty' || op === 'notEmpty')) {
    return op === 'empty' ? 'is not ticked' : 'is ticked';
  }
  if (type === 'file' && (op === 'empty' || op === 'notEmpty')) {
    return op === 'empty' ? 'has no file' : 'has a file';
  }
  if (type === 'date') {
    const dated: Partial<Record<ConditionOperator, string>> = {
      gt: 'is after',
      gte: 'is on or after',
      lt: 'is before',
      lte: 'is on or before',
    };
    if (dated[op]) return dated[op]!;
  }
  const words: Record<ConditionOperator, string> = {
    eq: 'is',
    neq: 'is not',
    in: 'is one of',
    notIn: 'is none of',
    contains: 'contains',
    empty: 'is not answered',
    notEmpty: 'is answered',
    gt: 'is more than',
    gte: 'is at least',
    lt: 'is less than',
    lte: 'is at most',
  };
  return words[op];
}

/** The condition in words: “Plan is Gold”, “Budget is at least 500”. */
export function conditionWords(
  condition: ConditionDraft,
  field: LogicFieldView | undefined,
): string {
  const name = field ? `“${field.name}”` : 'a removed field';
  const test = operatorWords(condition.op, field?.type ?? '');
  if (takesNoValue(condition.op)) return `${name} ${test}`;
  const values = condition.value.filter((each) => each.trim() !== '');
  return `${name} ${test} ${values.map((each) => `“${each}”`).join(' or ') || '…'}`;
}

/** A group in words, for a collapsed card: “Plan is Gold and Budget is at least 500”. */
export function groupWords(
  group: GroupDraft,
  fieldOf: (key: string) => LogicFieldView | undefined,
): string {
  return group.conditions
    .map((condition) => conditionWords(condition, fieldOf(condition.field)))
    .join(group.every ? ' and ' : ' or ');
}

/** A page's name on screen: its title, else its place. */
export const pageName = (page: PageDraft, number: number) =>
  page.title.trim() ? `Page ${number}: ${page.title.trim()}` : `Page ${number}`;

/** An id for a new page that no other page has. */
export function newPageId(taken: readonly string[]): string {
  for (let n = taken.length + 1; ; n++) {
    const id = `page-${n}`;
    if (!taken.includes(id)) return id;
  }
}

/** A page as the API takes it; `fields` are its fields' ids in order. */
export function pageOf(
  page: PageDraft,
  fields: string[],
  idOf: (key: string) => string,
  pageIdOf: (key: string) => string | undefined,
): FormPage {
  const saved: FormPage = { id: page.id, fields };
  if (page.title.trim() !== '') saved.title = page.title.trim();
  if (page.next.length > 0) {
    saved.next = page.next.map((rule) => ({
      if: groupOf(rule.when, idOf),
      goTo: rule.goTo === END ? END : (pageIdOf(rule.goTo) ?? rule.goTo),
    }));
  }
  return saved;
}

/** A saved page read back: rules name fields and pages by their keys. */
export function pageDraftOf(
  page: FormPage,
  keyOf: (id: string) => string | undefined,
  pageKeyOf: (id: string) => string | undefined,
  key: string,
): PageDraft {
  return {
    kind: 'page',
    key,
    id: page.id,
    title: page.title ?? '',
    next: (page.next ?? []).map((rule) => ({
      key: newLogicKey('rule'),
      when: groupDraftOf(rule.if, keyOf) ?? { every: true, conditions: [] },
      goTo: rule.goTo === END ? END : (pageKeyOf(rule.goTo) ?? rule.goTo),
    })),
  };
}
