import { NOT_AN_ANSWER } from './answer-columns.ts';
import type { Submission } from './submission-model.ts';

/**
 * A submission as one row of a Google Sheet (docs/integrations.md#google-sheets):
 * the header it needs, that header merged into the sheet's own row 1, the
 * row's cells under the merged header, and the A1 ranges the worker writes.
 * Pure: the calls to Google are lambdas/net/sheet-append.ts.
 */

export const ID_COLUMN = 'id';
export const CREATED_AT_COLUMN = 'createdAt';
/** Added at the right the first time a test submission is written (docs/integrations.md#google-sheets). */
export const IS_TEST_COLUMN = 'isTest';

/** The columns the service writes itself: no answer may fill them. */
const SERVICE_COLUMNS: ReadonlySet<string> = new Set([
  ID_COLUMN,
  CREATED_AT_COLUMN,
  IS_TEST_COLUMN,
]);

/** What an answer's column starts with when its name cannot be its column. */
export const ANSWER_PREFIX = 'answer:';

/**
 * The column an answer (or a field) is written under
 * (docs/integrations.md#google-sheets): its name, unless that name is a
 * service column (`id`, `createdAt`, `isTest`), has spaces around it (the
 * worker finds columns by name without them, so ` email ` would land on
 * `email`'s), is blank, or starts with `answer:`; then `answer:` and the
 * name as a JSON string (`answer:"isTest"`, `answer:" email "`). So a
 * visitor cannot write a service column, and two names are never one
 * column: no answer is dropped from its row.
 */
export function answerColumn(name: string): string {
  const plain =
    name !== '' &&
    name === name.trim() &&
    !SERVICE_COLUMNS.has(name) &&
    !name.startsWith(ANSWER_PREFIX);
  return plain ? name : `${ANSWER_PREFIX}${JSON.stringify(name)}`;
}

/** Google's limit on one cell's text; longer answers are cut there rather than refused. */
export const MAX_CELL_CHARACTERS = 50_000;
/** Google's widest sheet (column ZZZ); names past it get no column. */
export const MAX_SHEET_COLUMNS = 18_278;

/** What a row is made from: the stored submission's answers and its files' names. */
export type SheetSubmission = Pick<Submission, 'id' | 'createdAt' | 'isTest' | 'data'> & {
  meta: Pick<Submission['meta'], 'files'>;
};

/** An answer as text: arrays (a multiple choice) joined, anything else as it reads. */
function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(asText).join(', ');
  return typeof value === 'string' ? value : String(value);
}

function bounded(text: string): string {
  return text.length > MAX_CELL_CHARACTERS ? text.slice(0, MAX_CELL_CHARACTERS) : text;
}

/** Meta names such as `_invalid` are not answers (docs/submissions.md#submissions). */
function isAnswerName(name: string): boolean {
  return name !== NOT_AN_ANSWER && !name.startsWith('_');
}

/**
 * The submission's cells by column name: `id`, `createdAt`, each answer as
 * text under its answerColumn (a file answer as its files' names, since
 * signed links expire), and `isTest` only for a test submission. Values are
 * written with `valueInputOption=RAW`, so an answer starting with `=`, `+`,
 * `-` or `@` stays text: nothing here needs to escape it.
 */
export function submissionCells(submission: SheetSubmission): Map<string, string> {
  const cells = new Map<string, string>([
    [ID_COLUMN, submission.id],
    [CREATED_AT_COLUMN, submission.createdAt],
  ]);
  for (const [name, value] of Object.entries(submission.data)) {
    if (isAnswerName(name)) cells.set(answerColumn(name), bounded(asText(value)));
  }
  const filesByName = new Map<string, string[]>();
  for (const file of submission.meta.files ?? []) {
    if (!file.field || !isAnswerName(file.field)) continue;
    filesByName.set(file.field, [...(filesByName.get(file.field) ?? []), file.name]);
  }
  for (const [name, files] of filesByName) {
    cells.set(answerColumn(name), bounded(files.join(', ')));
  }
  if (submission.isTest) cells.set(IS_TEST_COLUMN, 'true');
  return cells;
}

/**
 * The header this submission needs: `id`, `createdAt`, the form's field ids
 * in order (each as its answerColumn), then its other answer columns (those first seen together in
 * code-point order, as the CSV export orders them, so the header does not
 * depend on how the store ordered a map), then `isTest` for a test.
 */
export function sheetHeader(submission: SheetSubmission, fieldIds: readonly string[]): string[] {
  const cells = submissionCells(submission);
  const header = [ID_COLUMN, CREATED_AT_COLUMN];
  const taken = new Set(header);
  for (const column of fieldIds.map(answerColumn)) {
    if (!taken.has(column)) {
      header.push(column);
      taken.add(column);
    }
  }
  const others = [...cells.keys()].filter((name) => !taken.has(name) && name !== IS_TEST_COLUMN);
  header.push(...others.sort());
  if (cells.has(IS_TEST_COLUMN) && !taken.has(IS_TEST_COLUMN)) header.push(IS_TEST_COLUMN);
  return header;
}

/** A header cell as the worker matches it: what the owner typed, without surrounding spaces. */
function headerName(cell: string | undefined): string {
  return (cell ?? '').trim();
}

export interface MergedHeader {
  /** Row 1 as it will read: the sheet's own cells, then the names it lacked. */
  header: string[];
  /** Index of the first added name, or -1 when none was added. */
  addedFrom: number;
}

/**
 * The sheet's row 1 with the names it lacks appended at the right. Existing
 * cells are never moved or rewritten (the owner may have reordered or
 * renamed columns by hand; a column is found by its name wherever it is),
 * and a blank cell in the middle stays blank. Names past Google's widest
 * sheet are left out.
 */
export function mergeHeader(existing: readonly string[], wanted: readonly string[]): MergedHeader {
  const header = existing.map((cell) => cell ?? '');
  while (header.length > 0 && headerName(header.at(-1)) === '') header.pop();
  const present = new Set(header.map(headerName));
  const addedFrom = header.length;
  for (const name of wanted) {
    if (present.has(name) || header.length >= MAX_SHEET_COLUMNS) continue;
    header.push(name);
    present.add(name);
  }
  return { header, addedFrom: header.length > addedFrom ? addedFrom : -1 };
}

/** The column of each name in a header (its first cell of that name). */
export function columnsByName(header: readonly string[]): Map<string, number> {
  const columns = new Map<string, number>();
  header.forEach((cell, index) => {
    const name = headerName(cell);
    if (name !== '' && !columns.has(name)) columns.set(name, index);
  });
  return columns;
}

/** The row's values, each under the column of its name; columns it has no value for are empty. */
export function rowUnder(header: readonly string[], cells: ReadonlyMap<string, string>): string[] {
  const row = header.map(() => '');
  for (const [name, column] of columnsByName(header)) {
    const value = cells.get(name);
    if (value !== undefined) row[column] = value;
  }
  while (row.length > 0 && row.at(-1) === '') row.pop();
  return row;
}

/** A column's letters from its 0-based index: 0 → A, 25 → Z, 26 → AA, 702 → AAA. */
export function columnLetters(index: number): string {
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`no column ${index}`);
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** A sheet name quoted for A1 notation: always in single quotes, a quote doubled. */
export function quoteSheetName(name: string): string {
  return `'${name.replaceAll("'", "''")}'`;
}

/** `'Sheet name'!A1:C1`-style ranges; `cells` is A1 notation without the sheet. */
export function a1Range(sheetName: string, cells?: string): string {
  return cells ? `${quoteSheetName(sheetName)}!${cells}` : quoteSheetName(sheetName);
}

/** Row 1 of a sheet, every column. */
export function headerRange(sheetName: string): string {
  return a1Range(sheetName, '1:1');
}

/** The cells of row 1 from column `from` to column `to` (0-based, inclusive). */
export function headerCellsRange(sheetName: string, from: number, to: number): string {
  return a1Range(sheetName, `${columnLetters(from)}1:${columnLetters(to)}1`);
}

/** One column below the header (row 2 down), e.g. the ids already written. */
export function columnBelowHeader(sheetName: string, column: number): string {
  const letters = columnLetters(column);
  return a1Range(sheetName, `${letters}2:${letters}`);
}

/** The range an append searches for the table from: row 1 across the header's width. */
export function appendRange(sheetName: string, width: number): string {
  return headerCellsRange(sheetName, 0, Math.max(width, 1) - 1);
}

/** The 1-based row number an A1 range such as `'S'!A7:F7` starts at, when it names one. */
export function firstRowOf(range: string): number | undefined {
  const cells = range.slice(range.lastIndexOf('!') + 1);
  const match = /^[A-Z]*(\d+)/.exec(cells);
  return match ? Number(match[1]) : undefined;
}
