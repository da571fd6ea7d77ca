import type { FieldDefinition } from './form-model.ts';

/**
 * The answer names of a form's column catalogue (issue 14), kept apart from
 * the CSV export's module so the submit path imports them without zod.
 */

/**
 * Answer names beyond the form's fields that get a column. Posts may carry
 * any names (50 a post), so a form fed by scripts could otherwise grow a
 * header no spreadsheet opens; names past the cap are left out of the file.
 */
export const MAX_EXTRA_ANSWER_COLUMNS = 1_000;

/** The field-check report stored beside the answers; the API shows it, the CSV does not. */
export const NOT_AN_ANSWER = '_invalid';

/**
 * A form's column catalogue as read: every answer name its posts carried
 * (field ids included), oldest first appearance first. `complete` when it
 * has been kept since the form was created, so it holds every stored name.
 */
export interface AnswerCatalogue {
  complete: boolean;
  names: readonly string[];
}

/**
 * The answer names of a post that its form's catalogue lacks, to add in the
 * storing transaction, in code-point order. Field ids always go in (a field
 * removed later must keep its column); other names only while the catalogue
 * holds fewer than `maxExtras` names that are not field ids, as the CSV
 * caps them too. Empty for a post that carries only known names.
 */
export function newAnswerNames(
  answerNames: readonly string[],
  catalogue: AnswerCatalogue | undefined,
  fields: readonly FieldDefinition[] | null,
  maxExtras = MAX_EXTRA_ANSWER_COLUMNS,
): string[] {
  const known = new Set(catalogue?.names ?? []);
  const fresh = answerNames.filter((name) => name !== NOT_AN_ANSWER && !known.has(name));
  if (fresh.length === 0) return fresh;
  const fieldIds = new Set((fields ?? []).map((field) => field.id));
  let room = maxExtras - [...known].filter((name) => !fieldIds.has(name)).length;
  const added: string[] = [];
  for (const name of [...new Set(fresh)].sort()) {
    if (fieldIds.has(name)) added.push(name);
    else if (room > 0) {
      added.push(name);
      room -= 1;
    }
  }
  return added;
}
