import { problemOf } from './answer-checks.ts';
import { MAX_ANSWER_LENGTH } from './field-rules.ts';
import { foldAnswer, isPrefillable } from './form-logic.ts';
import type { FieldDefinition } from './form-model.ts';

/**
 * Values a page's URL fills in (docs/forms.md#hidden-fields-and-prefill):
 * `?field=value` for a `hidden` field, and for a visible one whose owner
 * allowed it (`prefill: true`); never a file. A choice is matched as answers
 * are compared (case and spaces aside) and filled with the option's own
 * words; a value the field would refuse (over its length or the 10,000
 * characters of any answer, not a number, not an option) is ignored rather
 * than posted. Pure, for the hosted page on the
 * server and the embed in the browser alike.
 */
export function prefillValues(
  fields: readonly FieldDefinition[],
  query: Readonly<Record<string, string | readonly string[] | undefined>>,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of fields) {
    if (!isPrefillable(field)) continue;
    const sent = Object.hasOwn(query, field.id) ? query[field.id] : undefined;
    const value = fitted(field, typeof sent === 'string' ? [sent] : (sent ?? []));
    if (value !== undefined) {
      Object.defineProperty(values, field.id, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return values;
}

/** The value to fill `field` with from what the URL sent, or undefined to leave it empty. */
function fitted(field: FieldDefinition, sent: readonly string[]): string | undefined {
  const given = sent.filter((value) => value.trim() !== '');
  if (given.length === 0) return undefined;
  const options = field.options ?? [];
  const optionOf = (value: string) =>
    options.find((option) => foldAnswer(option) === foldAnswer(value));
  let value: string | undefined;
  if ((field.type === 'select' || field.type === 'radio') && options.length > 0) {
    value = given.length === 1 ? optionOf(given[0]!) : undefined;
  } else if (field.type === 'checkbox' && options.length > 0) {
    // Repeated (`?topics=a&topics=b`) or joined by commas, as a post joins them.
    // An option holding a comma is matched whole before the value is split.
    const chosen = given
      .flatMap((each) => (optionOf(each) ? [each] : each.split(',')))
      .map(optionOf);
    value = chosen.every((option) => option !== undefined) ? chosen.join(',') : undefined;
  } else {
    value = given.length === 1 ? given[0] : undefined;
  }
  if (value === undefined || [...value].length > MAX_ANSWER_LENGTH) return undefined;
  return problemOf(field, value) === null ? value : undefined;
}
