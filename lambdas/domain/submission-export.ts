import * as z from 'zod/mini';
import { MAX_EXTRA_ANSWER_COLUMNS, NOT_AN_ANSWER } from './answer-columns.ts';
import type { FieldDefinition } from './form-model.ts';
import { FOLDERS, type Folder } from './submission-folders.ts';
import { scanOf } from './file-scans.ts';
import type { StoredFile, Submission } from './submission-model.ts';
import { inEnglish } from './validation-issues.ts';
import { withoutHiddenCharacters } from './visible-text.ts';

/**
 * The CSV export's columns and rows (docs/submissions.md#csv-columns):
 * `id,createdAt`, the form's field ids in order, other answer names by first appearance, then
 * the flags and visitor meta. "First appearance" is ever, oldest first, as
 * the form's column catalogue records it (the same header for every folder
 * and every export, so a spreadsheet's columns stay put); a form whose
 * catalogue is not complete (stored before it existed) falls back to the
 * order of first appearance in the folder's newest-first walk.
 */

/** Query string of `GET /v1/forms/{id}/export.csv`; values arrive as strings. */
export const exportQuery = inEnglish(
  z.strictObject({
    filter: z._default(z.enum(FOLDERS), 'all'),
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

/**
 * The form's file fields, in order: each gets a column of its files' malware
 * scan verdicts after the fixed ones (docs/submissions.md#csv-columns).
 */
export function fileFieldIds(fields: readonly FieldDefinition[] | null): string[] {
  return (fields ?? []).filter((field) => field.type === 'file').map((field) => field.id);
}

/** The verdict column of a file field: `<field id>:scan`. */
export const scanColumn = (fieldId: string) => `${fieldId}:scan`;

export function exportHeader(
  answerNames: readonly string[],
  fileFields: readonly string[] = [],
): string[] {
  return [...LEADING_COLUMNS, ...answerNames, ...TRAILING_COLUMNS, ...fileFields.map(scanColumn)];
}

/**
 * The verdicts of a file field's files, joined by `; `: `clean`, `pending`,
 * `infected (<threats>)`, `unsupported`, `failed`, `not_scanned`. A file
 * stored before files kept their field counts for the form's one file field.
 */
function scanCell(files: readonly StoredFile[], fieldId: string, fileFields: readonly string[]) {
  return files
    .filter((file) => (file.field ?? (fileFields.length === 1 ? fileFields[0] : '')) === fieldId)
    .map((file) =>
      scanOf(file) === 'infected'
        ? `infected (${(file.threats ?? []).map(withoutHiddenCharacters).join(', ')})`
        : scanOf(file),
    )
    .join('; ');
}

/** One submission under the header of `answerNames`; an answer it lacks is an empty cell. */
export function exportRow(
  submission: Submission,
  answerNames: readonly string[],
  fileFields: readonly string[] = [],
): string[] {
  const { data, meta } = submission;
  return [
    submission.id,
    submission.createdAt,
    // Own properties only: a field named `constructor` must not read Object's.
    ...answerNames.map((name) => (Object.hasOwn(data, name) ? String(data[name]) : '')),
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
    ...fileFields.map((id) => scanCell(meta.files ?? [], id, fileFields)),
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
