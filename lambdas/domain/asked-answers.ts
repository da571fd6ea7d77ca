import { answersWithFiles, hasLogic, keptAnswers, walk } from './form-logic.ts';
import type { FieldDefinition, FormRecord } from './form-model.ts';
import { storedFileField } from './submission-answers.ts';

/**
 * The submit path's logic step (docs/submit.md#processing-order, step 7's
 * end): the form walked with the posted answers, so only what the person was
 * asked goes on. Answers and files of fields the walk did not ask are
 * dropped here, before anything stores or sends them (no email, webhook,
 * integration, export or summary sees them); the post is not refused for
 * them. The fields the checks then run on are the active ones, each
 * required as the walk decided, so a required field on a branch not taken
 * never marks a submission, and one on the branch taken does.
 */

export interface AskedAnswers<F> {
  /** The answers kept: the active fields', and names the form does not define. */
  data: Record<string, string>;
  /** The files kept: those under an active field or under no defined field. */
  files: F[];
  /** What the field checks run on: the active fields, `required` as the walk decided. */
  fields: FieldDefinition[] | null;
  /** The page the walk ended on, for a form with pages. */
  endedOn: string | undefined;
}

export function askedAnswers<F extends { field: string }>(
  form: Pick<FormRecord, 'fields' | 'pages'>,
  data: Record<string, string>,
  files: readonly F[],
): AskedAnswers<F> {
  // A form without logic asks every field: exactly what it did before logic existed.
  if (!form.fields || !hasLogic(form)) {
    return { data, files: [...files], fields: form.fields, endedOn: undefined };
  }
  const named = files.map((file) => ({ file, field: storedFileField(file.field) }));
  const result = walk(form, answersWithFiles(data, named));
  const active = new Set(result.active);
  const required = new Set(result.required);
  const defined = new Set(form.fields.map((field) => field.id));
  return {
    data: keptAnswers(form, result, data),
    files: named
      .filter(({ field }) => field === undefined || !defined.has(field) || active.has(field))
      .map(({ file }) => file),
    fields: form.fields
      .filter((field) => active.has(field.id))
      .map((field) => ({ ...field, required: required.has(field.id) })),
    endedOn: result.endedOn ?? undefined,
  };
}
