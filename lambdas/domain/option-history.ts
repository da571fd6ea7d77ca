import type { FieldDefinition } from './form-model.ts';

/**
 * What a choice field remembers of the options taken out of it
 * (docs/forms.md#changing-options), so the summary's rows always add up:
 * answers given under words that are no longer an option count under the
 * option they were renamed to, or apart by their own words, never lost.
 */

/** Former options a field keeps at most; past it, the oldest kept apart go first. */
export const MAX_FORMER_OPTIONS = 100;

type Former = Record<string, string | null>;

const isChoice = (field: FieldDefinition) => field.type === 'select' || field.type === 'radio';

/** How answers meet options: without surrounding spaces, in any case (as the summary matches). */
const folded = (value: string) => value.trim().toLowerCase();

/**
 * The fields as saved: each choice field that was a choice field before
 * keeps its history. An option taken out becomes a former option kept apart
 * (null), unless the request renamed it (its own `formerOptions` naming an
 * option now, which wins); a former option renamed to one now taken out
 * follows that one's rename (or is kept apart); one that is an option again
 * is no longer former. Fields new to the form keep what was sent; other
 * types keep none.
 */
export function withOptionHistory(
  before: readonly FieldDefinition[] | null,
  after: FieldDefinition[] | null,
): FieldDefinition[] | null {
  if (!after) return after;
  const earlier = new Map((before ?? []).map((field) => [field.id, field]));
  return after.map((field) => {
    if (!isChoice(field)) {
      const { formerOptions: _none, ...rest } = field;
      return rest;
    }
    const was = earlier.get(field.id);
    const options = field.options ?? [];
    const current = new Set(options.map(folded));
    const sent: Former = field.formerOptions ?? {};
    const history: Former = {};
    if (was && isChoice(was)) {
      Object.assign(history, was.formerOptions ?? {});
      for (const option of was.options ?? []) {
        if (!current.has(folded(option))) history[option] = null;
      }
    }
    Object.assign(history, sent);
    const resolved: Former = {};
    for (const [words, target] of Object.entries(history)) {
      if (current.has(folded(words))) continue;
      resolved[words] = follow(target, history, options);
    }
    const kept = bounded(resolved);
    const { formerOptions: _sent, ...rest } = field;
    return Object.keys(kept).length > 0 ? { ...rest, formerOptions: kept } : rest;
  });
}

/** Where a rename leads now: an option, through renames of renamed ones, else null. */
function follow(target: string | null, history: Former, options: readonly string[]): string | null {
  const seen = new Set<string>();
  let at = target;
  while (at !== null && !options.includes(at)) {
    if (seen.has(at)) return null;
    seen.add(at);
    // hasOwn: old words may be named like Object.prototype's properties.
    at = Object.hasOwn(history, at) ? (history[at] ?? null) : null;
  }
  return at;
}

/** At most MAX_FORMER_OPTIONS: the oldest kept apart go first, then the oldest renames. */
function bounded(former: Former): Former {
  const entries = Object.entries(former);
  let excess = entries.length - MAX_FORMER_OPTIONS;
  if (excess <= 0) return former;
  const dropped = new Set<string>();
  for (const pass of [true, false]) {
    for (const [words, target] of entries) {
      if (excess <= 0) break;
      if ((target === null) === pass && !dropped.has(words)) {
        dropped.add(words);
        excess -= 1;
      }
    }
  }
  return Object.fromEntries(entries.filter(([words]) => !dropped.has(words)));
}
