import { nameWords, shortened } from './inbox-model.ts';
import type { FieldDefinition, Submission } from './model.ts';

/**
 * The inbox's table view (docs/dashboard.md#the-table-view): a column per
 * question, chosen and ordered by the owner, each cell the answer cut short
 * (the whole is on the submission). Pure: the screen draws what this
 * decides, and `app/inbox-view.ts` keeps the choice per form in the browser.
 */

/** One question a column can show: a field of the form, or an answer name it received. */
export interface AnswerColumn {
  id: string;
  label: string;
  field?: FieldDefinition;
}

/** Columns shown before the owner chooses: the first questions, so the table starts readable. */
export const DEFAULT_COLUMN_COUNT = 6;
/** A cell's answer at most, in characters (code points); the submission has all of it. */
export const CELL_LENGTH = 80;

/** The field-check report is not an answer; it gets no column, as in the CSV export. */
const NOT_AN_ANSWER = '_invalid';

/**
 * Every question a column can show: the form's fields in their order, then
 * answer names of the submissions shown that the form does not define (a
 * form without fields has only these), by first appearance, then names
 * chosen before that these submissions lack (their column stays, empty).
 */
export function questionColumns(
  fields: readonly FieldDefinition[] | null,
  items: readonly Pick<Submission, 'data'>[],
  chosen: readonly string[] = [],
): AnswerColumn[] {
  const columns: AnswerColumn[] = (fields ?? []).map((field) => ({
    id: field.id,
    label: field.label?.trim() || field.id,
    field,
  }));
  const known = new Set(columns.map((column) => column.id));
  const add = (name: string) => {
    if (name === NOT_AN_ANSWER || known.has(name)) return;
    known.add(name);
    columns.push({ id: name, label: nameWords(name) });
  };
  for (const { data } of items) for (const name of Object.keys(data)) add(name);
  for (const name of chosen) add(name);
  return columns;
}

/**
 * The columns shown, in order: the owner's choice (names no longer
 * questions of the form dropped), or, before any choice, the first
 * `DEFAULT_COLUMN_COUNT` questions.
 */
export function shownColumns(
  all: readonly AnswerColumn[],
  chosen: readonly string[] | undefined,
): AnswerColumn[] {
  if (!chosen) return all.slice(0, DEFAULT_COLUMN_COUNT);
  const byId = new Map(all.map((column) => [column.id, column]));
  return chosen.flatMap((id) => byId.get(id) ?? []);
}

/** The choice with `id` shown (added last) or hidden. */
export function toggledColumn(shown: readonly string[], id: string): string[] {
  return shown.includes(id) ? shown.filter((each) => each !== id) : [...shown, id];
}

/** The choice with `id` moved one place earlier (-1) or later (1), kept within the list. */
export function movedColumn(shown: readonly string[], id: string, by: -1 | 1): string[] {
  const from = shown.indexOf(id);
  const to = from + by;
  if (from < 0 || to < 0 || to >= shown.length) return [...shown];
  const next = [...shown];
  next.splice(from, 1);
  next.splice(to, 0, id);
  return next;
}

/** The name a file was sent under, as answers are named (`docs[]` is `docs`). */
const fileField = (field: string | undefined) => field?.replace(/\[\]$/, '') || undefined;

/**
 * A cell: the answer cut to `CELL_LENGTH`, a ticked box "Ticked", a file
 * field's files by name (files stored before files kept their field go to
 * the form's one file field: docs/submissions.md#files); '' when unanswered.
 */
export function cellWords(
  submission: Pick<Submission, 'data' | 'meta'>,
  column: AnswerColumn,
  fields: readonly FieldDefinition[] | null,
): string {
  if (column.field?.type === 'file') {
    const fileFields = (fields ?? []).filter((field) => field.type === 'file');
    const names = (submission.meta.files ?? [])
      .filter((file) => {
        const under = fileField(file.field);
        return under ? under === column.id : fileFields.length === 1;
      })
      .map((file) => file.name);
    return shortened(names.join('; '), CELL_LENGTH);
  }
  const { data } = submission;
  const value = Object.hasOwn(data, column.id) ? (data[column.id] ?? '') : '';
  if (!value.trim()) return '';
  if (column.field?.type === 'checkbox' && value.trim() === 'on') return 'Ticked';
  return shortened(value, CELL_LENGTH);
}
