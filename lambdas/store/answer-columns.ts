import type { AnswerCatalogue } from '#domain/answer-columns.ts';
import { formColumnsKey } from './keys.ts';
import type { TableTransactItem } from './table.ts';

/**
 * A form's column catalogue (issue 14): one item beside the form and its
 * counter shards that holds every answer name the form's posts ever carried,
 * one attribute per name (`a#<name>`: the Unix ms of the first post that
 * carried it). The storing transaction of a post that carries a name the
 * catalogue lacks sets that attribute `if_not_exists`, so concurrent posts
 * and retries never duplicate a name and the earliest write keeps its time.
 * `complete` is set when the form is created: only then does the catalogue
 * know every name of every submission (forms stored before it existed get
 * an item from their first new post, without `complete`).
 */

const NAME_PREFIX = 'a#';

/** The catalogue in a form's `FORM`-prefixed items; undefined when the form has none. */
export function answerCatalogueOf(
  items: readonly Record<string, unknown>[],
): AnswerCatalogue | undefined {
  const item = items.find((candidate) => candidate.sk === formColumnsKey('').sk);
  if (!item) return undefined;
  const entries: [string, number][] = [];
  for (const [attribute, value] of Object.entries(item)) {
    if (attribute.startsWith(NAME_PREFIX)) {
      entries.push([attribute.slice(NAME_PREFIX.length), Number(value)]);
    }
  }
  // First appearance ever, oldest first; names first seen together in code-point order.
  entries.sort(([a, at], [b, bt]) => at - bt || (a < b ? -1 : a > b ? 1 : 0));
  return { complete: item.complete === true, names: entries.map(([name]) => name) };
}

/** The catalogue of a form created now: complete, no name yet. */
export function newAnswerCatalogueItem(formId: string): TableTransactItem {
  return {
    Put: {
      Item: { ...formColumnsKey(formId), entity: 'answerColumns', complete: true },
    },
  };
}

/**
 * Adds answer names first seen at `at` (Unix ms) to the catalogue, creating
 * it if missing (without `complete`). Names it already holds keep their
 * time, so the write may be repeated.
 */
export function answerCatalogueUpdate(
  formId: string,
  names: readonly string[],
  at: number,
): TableTransactItem {
  const attributes: Record<string, string> = { '#entity': 'entity' };
  const sets = ['#entity = :entity'];
  names.forEach((name, i) => {
    attributes[`#${i}`] = `${NAME_PREFIX}${name}`;
    sets.push(`#${i} = if_not_exists(#${i}, :at)`);
  });
  return {
    Update: {
      Key: formColumnsKey(formId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: attributes,
      ExpressionAttributeValues: { ':entity': 'answerColumns', ':at': at },
    },
  };
}
