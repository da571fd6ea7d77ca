import { type Entry, fieldsIn, pagesIn } from './fields-layout.ts';
import { ADD_FIELD_ID, type FieldProblem, fieldName } from './fields-model.ts';
import { type GroupDraft, pageName } from './logic-model.ts';
import { lowerFirst, plainWords, type RawIssue } from './problem-sentences.ts';

/** The id of the button that adds a page break (where a problem of the pages as a whole leads). */
export const ADD_PAGE_ID = 'fields-add-page';

/**
 * The ids of a rule's controls (docs/dashboard.md#logic): `prefix` is the
 * field's key and `showIf`/`requiredIf`, or the page's and the rule's keys.
 */
export const logicControl = (prefix: string, conditionKey: string, part: string) =>
  `${prefix}-${conditionKey}-${part}`;
export const groupPrefix = (fieldKey: string, which: 'showIf' | 'requiredIf') =>
  `${fieldKey}-${which}`;
export const rulePrefix = (pageKey: string, ruleKey: string) => `${pageKey}-${ruleKey}`;

const PART_WORDS: Record<string, string> = { field: 'field', op: 'test', value: 'value' };

/**
 * An issue of the form's logic (`fields.3.showIf.all.0.field`,
 * `pages.1.next.0.goTo`) at the control of the rule it concerns, in words
 * that name fields and pages as the screen does; undefined for any other
 * issue (the fields' own properties are said by fieldProblemOf).
 */
export function logicProblemOf(
  entries: readonly Entry[],
  issue: RawIssue,
): FieldProblem | undefined {
  const [root, index, which, ...rest] = issue.path;
  const fields = fieldsIn(entries);
  const pages = pagesIn(entries);
  const text = wordsOf(entries, issue);
  if (root === 'notifyRules') {
    return {
      key: '',
      property: '',
      control: ADD_FIELD_ID,
      text,
      summary: `A routing rule of the notification (set through the API): ${lowerFirst(text)}`,
    };
  }
  if (root === 'pages') {
    const page = typeof index === 'number' ? pages[index] : undefined;
    if (!page) {
      return {
        key: '',
        property: '',
        control: ADD_PAGE_ID,
        text,
        summary: `Pages: ${lowerFirst(text)}`,
      };
    }
    const where = pageName(page, Number(index) + 1);
    const ruleIndex = rest[0];
    const rule =
      which === 'next' && typeof ruleIndex === 'number' ? page.next[ruleIndex] : undefined;
    if (!rule) {
      const control = `${page.key}-title`;
      return {
        key: page.key,
        property: control,
        control,
        text,
        summary: `${where}: ${lowerFirst(text)}`,
      };
    }
    const prefix = rulePrefix(page.key, rule.key);
    const at = rest[1] === 'if' ? conditionControl(prefix, rule.when, rest.slice(2)) : undefined;
    const control = at ?? `${prefix}-goTo`;
    return {
      key: page.key,
      property: control,
      control,
      text,
      summary: `${where}, jump ${Number(ruleIndex) + 1}: ${lowerFirst(text)}`,
    };
  }
  if (root !== 'fields' || typeof index !== 'number') return undefined;
  const draft = fields[index];
  if (!draft) return undefined;
  const where = `Field ${index + 1} (${fieldName(draft, index + 1)})`;
  if (which === undefined) {
    // A field on no page.
    const control = `${draft.key}-toggle`;
    return {
      key: draft.key,
      property: control,
      control,
      text,
      summary: `${where}: ${lowerFirst(text)}`,
    };
  }
  if (which !== 'showIf' && which !== 'requiredIf') return undefined;
  const prefix = groupPrefix(draft.key, which);
  const control = conditionControl(prefix, draft[which], rest) ?? `${prefix}-add`;
  const rule = which === 'showIf' ? 'show only if' : 'required if';
  return {
    key: draft.key,
    property: control,
    control,
    text,
    summary: `${where}, ${rule}: ${lowerFirst(text)}`,
  };
}

/** The control of a condition's part (`all.0.field`), or undefined for the group itself. */
function conditionControl(
  prefix: string,
  group: GroupDraft | null | undefined,
  path: readonly PropertyKey[],
): string | undefined {
  const [, index, part = 'field'] = path;
  const condition = typeof index === 'number' ? group?.conditions[index] : undefined;
  if (!condition) return undefined;
  return logicControl(prefix, condition.key, PART_WORDS[String(part)] ? String(part) : 'value');
}

/**
 * The save's sentence with fields and pages named as on screen: a quoted
 * field id becomes its label, a quoted page id the page's name; a test its
 * type does not take is said plainly.
 */
function wordsOf(entries: readonly Entry[], issue: RawIssue): string {
  const [root, , part] = issue.path;
  if (root === 'pages' && part === 'fields' && issue.path.length === 3) {
    return 'A page needs at least one field: add one, or move one to it';
  }
  if (issue.code !== 'custom') return plainWords(issue, 'conditions');
  if (issue.path.at(-1) === 'op') {
    return 'This test does not apply to the field it reads: choose another';
  }
  const fields = fieldsIn(entries);
  const pages = pagesIn(entries);
  const names = new Map<string, string>([
    ...fields.map((draft, index): [string, string] => [draft.id, fieldName(draft, index + 1)]),
    ...pages.map((page, index): [string, string] => [page.id, pageName(page, index + 1)]),
  ]);
  return issue.message.replace(/'([^']*)'/g, (_, id: string) => `“${names.get(id) ?? id}”`);
}
