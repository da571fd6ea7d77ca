import * as z from 'zod/mini';
import { MAX_EXTRA_ANSWER_COLUMNS, NOT_AN_ANSWER } from './answer-columns.ts';
import type { FieldDefinition } from './form-model.ts';
import { FOLDERS, type Folder } from './submission-folders.ts';
import type { Submission } from './submission-model.ts';
import { inEnglish } from './validation-issues.ts';
import { withoutHiddenCharacters } from './visible-text.ts';

/**
 * The CSV export's columns and rows (docs/submissions.md#csv-columns):
 * `id,createdAt`, the form's field ids in order, other answer names by first appearance, then
 * the flags and visitor meta; named by ids, or by the fields' labels on asking. A file
 * field's column lists its files with the link to the submission's page. "First appearance" is ever, oldest first, as
 * the form's column catalogue records it (the same header for every folder
 * and every export, so a spreadsheet's columns stay put); a form whose
 * catalogue is not complete (stored before it existed) falls back to the
 * order of first appearance in the folder's newest-first walk.
 */

/** How the header names the columns: by id (for scripts, the default) or by label (for people). */
export const EXPORT_HEADERS = ['ids', 'labels'] as const;
export type ExportHeader = (typeof EXPORT_HEADERS)[number];

/** Query string of `GET /v1/forms/{id}/export.csv`; values arrive as strings. */
export const exportQuery = inEnglish(
  z.strictObject({
    filter: z._default(z.enum(FOLDERS), 'all'),
    header: z._default(z.enum(EXPORT_HEADERS), 'ids'),
  }),
);

// The cap on extra answer columns lives with the catalogue, which the submit path imports without zod.
export { MAX_EXTRA_ANSWER_COLUMNS } from './answer-columns.ts';

const LEADING_COLUMNS = ['id', 'createdAt'] as const;
const TRAILING_COLUMNS = [
  'read',
  'starred',
  'isSpam',
  'isTest',
  'ip',
  'country',
  'deviceClass',
  'userAgent',
  'referrer',
  'files',
] as const;

/**
 * The answer columns of an export: the form's field ids, then the names of
 * the form's catalogue (`noteNames`), or, for a form without a complete
 * catalogue, the names learned by pass 1 from the submissions it is shown,
 * newest first (`note`). Names first seen in the same submission are taken
 * in code-point order, so the header does not depend on how the store
 * orders a map's keys.
 */
export class AnswerColumns {
  readonly #names: string[];
  readonly #known: Set<string>;
  readonly #maxExtras: number;
  #extras = 0;
  #dropped = new Set<string>();

  constructor(fields: readonly FieldDefinition[] | null, maxExtras = MAX_EXTRA_ANSWER_COLUMNS) {
    this.#known = new Set((fields ?? []).map((field) => field.id));
    this.#names = [...this.#known];
    this.#maxExtras = maxExtras;
  }

  note(submissions: readonly Pick<Submission, 'data'>[]): void {
    for (const { data } of submissions) this.#add(this.#unknown(data).sort());
  }

  /** Names in the order given (a catalogue's); repeated and known ones are skipped. */
  noteNames(names: readonly string[]): void {
    this.#add(names.filter((name) => name !== NOT_AN_ANSWER && !this.#known.has(name)));
  }

  /**
   * Answer names of these submissions that the header lacks although the
   * cap left room for them: after a catalogue's header, the names of a post
   * whose transaction committed after the catalogue was read. Counted (up
   * to the cap) for the log line only.
   */
  lateNames(submissions: readonly Pick<Submission, 'data'>[]): number {
    if (this.#extras >= this.#maxExtras) return 0;
    const late = new Set<string>();
    for (const { data } of submissions) {
      for (const name of this.#unknown(data)) late.add(name);
    }
    return late.size;
  }

  #unknown(data: Submission['data']): string[] {
    return Object.keys(data).filter((name) => name !== NOT_AN_ANSWER && !this.#known.has(name));
  }

  #add(fresh: readonly string[]): void {
    for (const name of fresh) {
      if (this.#known.has(name)) continue;
      if (this.#extras < this.#maxExtras) {
        this.#known.add(name);
        this.#names.push(name);
        this.#extras += 1;
      } else if (this.#dropped.size < this.#maxExtras) {
        // Counted (up to a bound, to keep memory flat) for the log line only.
        this.#dropped.add(name);
      }
    }
  }

  get names(): readonly string[] {
    return this.#names;
  }

  /** Distinct names left out past the cap (counted up to the cap itself). */
  get droppedCount(): number {
    return this.#dropped.size;
  }
}

/** The fixed columns in words, for `header=labels` (docs/submissions.md#csv-columns). */
const LEADING_LABELS: Record<(typeof LEADING_COLUMNS)[number], string> = {
  id: 'Submission',
  createdAt: 'Received',
};
const TRAILING_LABELS: Record<(typeof TRAILING_COLUMNS)[number], string> = {
  read: 'Read',
  starred: 'Starred',
  isSpam: 'Spam',
  isTest: 'Test',
  ip: 'IP address',
  country: 'Country',
  deviceClass: 'Device',
  userAgent: 'Browser (user agent)',
  referrer: 'Page (referrer)',
  files: 'Files',
};

/**
 * The header: ids (`id`, `createdAt`, the answer names, `read`…), or with
 * `fields` (`header=labels`) the fields' labels and the fixed columns in
 * words. A field without a label keeps its id; two fields of one label are
 * told apart by their ids ("Name (first)", "Name (last)"); an answer that
 * no field defines keeps its name.
 */
export function exportHeader(
  answerNames: readonly string[],
  labels?: { fields: readonly FieldDefinition[] | null },
): string[] {
  if (!labels) return [...LEADING_COLUMNS, ...answerNames, ...TRAILING_COLUMNS];
  const fields = new Map((labels.fields ?? []).map((field) => [field.id, field]));
  const labelOf = (name: string) => fields.get(name)?.label?.trim() || name;
  const uses = new Map<string, number>();
  for (const name of answerNames) uses.set(labelOf(name), (uses.get(labelOf(name)) ?? 0) + 1);
  return [
    ...LEADING_COLUMNS.map((column) => LEADING_LABELS[column]),
    ...answerNames.map((name) => {
      const label = labelOf(name);
      return (uses.get(label) ?? 0) > 1 && label !== name ? `${label} (${name})` : label;
    }),
    ...TRAILING_COLUMNS.map((column) => TRAILING_LABELS[column]),
  ];
}

/** Where a submission's files can be fetched from a spreadsheet, in a file field's cell. */
export interface FileCells {
  fields: readonly FieldDefinition[] | null;
  /**
   * The dashboard's page of a submission: a link that lasts (it signs the
   * reader in, then offers each file), unlike a file's signed URL, which
   * ends 15 minutes after it is made (docs/submissions.md#file-links).
   */
  pageOf: (submissionId: string) => string;
}

/** The name a file was sent under, as answers are named (`docs[]` is `docs`). */
const fileFieldOf = (field: string | undefined) => field?.replace(/\[\]$/, '') || undefined;

/**
 * The files of each of the form's file fields: those sent under its id, and
 * files stored before files kept their field, when the form has one file
 * field (docs/submissions.md#files).
 */
function filesByField(
  submission: Submission,
  fields: readonly FieldDefinition[] | null,
): Map<string, string[]> {
  const fileFields = (fields ?? []).filter((field) => field.type === 'file').map((f) => f.id);
  const byField = new Map<string, string[]>(fileFields.map((id) => [id, []]));
  for (const file of submission.meta.files ?? []) {
    const under = fileFieldOf(file.field) ?? (fileFields.length === 1 ? fileFields[0] : undefined);
    if (under !== undefined) byField.get(under)?.push(withoutHiddenCharacters(file.name));
  }
  return byField;
}

/**
 * One submission under the header of `answerNames`; an answer it lacks is
 * an empty cell. With `files`, a file field's cell says which files it
 * holds and where to get them: "cv.pdf; letter.pdf — <the submission's
 * page>" (empty when it holds none).
 */
export function exportRow(
  submission: Submission,
  answerNames: readonly string[],
  files?: FileCells,
): string[] {
  const { data, meta } = submission;
  const byField = files ? filesByField(submission, files.fields) : new Map<string, string[]>();
  const cell = (name: string) => {
    const names = byField.get(name);
    if (names)
      return names.length > 0 ? `${names.join('; ')} — ${files!.pageOf(submission.id)}` : '';
    // Own properties only: a field named `constructor` must not read Object's.
    return Object.hasOwn(data, name) ? String(data[name]) : '';
  };
  return [
    submission.id,
    submission.createdAt,
    ...answerNames.map(cell),
    String(submission.read),
    String(submission.starred),
    String(submission.isSpam),
    String(submission.isTest),
    meta.ip ?? '',
    meta.country ?? '',
    meta.deviceClass ?? '',
    meta.userAgent ?? '',
    meta.referrer ?? '',
    // Names stored before hidden characters were cleaned at upload are cleaned here too.
    (meta.files ?? []).map((file) => withoutHiddenCharacters(file.name)).join('; '),
  ];
}

/**
 * `<form name>-<filter>-<yyyy-mm-dd>.csv` in ASCII letters, digits and
 * hyphens, so the header needs no RFC 5987 form and no quoting surprises.
 */
export function exportFileName(formName: string, filter: Folder, at: Date): string {
  const slug =
    formName
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 60)
      .replace(/^-+|-+$/g, '') || 'form';
  return `${slug}-${filter}-${at.toISOString().slice(0, 10)}.csv`;
}
