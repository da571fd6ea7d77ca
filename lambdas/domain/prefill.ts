import { problemOf } from './answer-checks.ts';
import { MAX_ANSWER_LENGTH } from './field-rules.ts';
import type { FieldDefinition } from './form-model.ts';

/**
 * Prefill (docs/forms.md#prefill): the answers a page fills in from outside
 * the form before the visitor sees it, from the URL's query string or (the
 * embed, the pasted form's script) the script tag's `data-prefill-*`. Only a
 * `hidden` field, or a field its owner marked `prefill: true`, is filled,
 * and only with a value that passes the field's own checks
 * (answer-checks.ts): a value over the field's limits, not among its options
 * or of the wrong kind is ignored, never posted. Pure, so the hosted page's
 * server and the page's script fill alike.
 */

/** Whether a field takes a value from outside: a hidden field always, another when its owner allows. */
export const isPrefillable = (field: Pick<FieldDefinition, 'type' | 'prefill'>) =>
  field.type === 'hidden' || (field.prefill === true && field.type !== 'file');

/** How a single tick box is ticked from a URL: `?terms=yes` (or true, 1, on). */
const TICKED = new Set(['yes', 'true', '1', 'on']);

/**
 * The values to fill, by field id, from `valueOf` (the query string's or the
 * tag's value of a field id; undefined when it gives none). A single tick box
 * takes `yes`; a value the field would refuse is left out.
 */
export function prefilledValues(
  fields: readonly FieldDefinition[],
  valueOf: (fieldId: string) => string | null | undefined,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of fields) {
    if (!isPrefillable(field)) continue;
    const given = valueOf(field.id);
    if (typeof given !== 'string' || given.trim() === '' || given.length > MAX_ANSWER_LENGTH) {
      continue;
    }
    let value = given;
    if (field.type === 'checkbox' && !field.options?.length) {
      if (!TICKED.has(given.trim().toLowerCase())) continue;
      value = 'yes';
    }
    if (problemOf(field, value) !== null) continue;
    // Field ids start with a letter: never `__proto__`.
    values[field.id] = value;
  }
  return values;
}
