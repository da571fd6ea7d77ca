/**
 * Lambda event filtering (the subset the stack uses and a bit more): a
 * pattern is an object whose leaves are arrays of allowed values or rules
 * (`prefix`, `exists`, `anything-but`, `numeric`). One evaluator for both
 * sides of the stream: the stream dispatcher hands a record to each consumer
 * whose pattern it matches (lambdas/events/stream-dispatcher.ts), and the
 * local pollers apply the pattern the CDK event source mapping declares, so a
 * record the real mapping would drop never reaches a local handler either.
 */

/** A Lambda event-filter pattern: leaves are arrays of allowed values or rules. */
export type FilterPattern = { readonly [key: string]: FilterPattern | readonly unknown[] };

export function matchesPattern(event: unknown, pattern: FilterPattern): boolean {
  for (const [key, expected] of Object.entries(pattern)) {
    const value = isRecord(event) ? event[key] : undefined;
    if (Array.isArray(expected)) {
      if (!matchesLeaf(value, expected)) return false;
    } else if (!isRecord(value) || !matchesPattern(value, expected as FilterPattern)) {
      return false;
    }
  }
  return true;
}

function matchesLeaf(value: unknown, allowed: readonly unknown[]): boolean {
  const values = Array.isArray(value) ? value : [value];
  return allowed.some((rule) => {
    if (isRecord(rule) && 'exists' in rule) return (value !== undefined) === rule.exists;
    if (value === undefined) return false;
    return values.some((candidate) => matchesRule(candidate, rule));
  });
}

function matchesRule(value: unknown, rule: unknown): boolean {
  if (!isRecord(rule)) return value === rule;
  if (typeof rule.prefix === 'string')
    return typeof value === 'string' && value.startsWith(rule.prefix);
  if ('anything-but' in rule) {
    const excluded = Array.isArray(rule['anything-but'])
      ? rule['anything-but']
      : [rule['anything-but']];
    return !excluded.includes(value);
  }
  if (Array.isArray(rule.numeric)) return typeof value === 'number' && numeric(value, rule.numeric);
  return false;
}

function numeric(value: number, conditions: unknown[]): boolean {
  for (let i = 0; i + 1 < conditions.length; i += 2) {
    const bound = conditions[i + 1] as number;
    const ok = {
      '=': value === bound,
      '<': value < bound,
      '<=': value <= bound,
      '>': value > bound,
      '>=': value >= bound,
    }[conditions[i] as string];
    if (!ok) return false;
  }
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether every event `narrower` matches also matches `wider`: each
 * constraint of `wider` is in `narrower` too, with allowed values that are
 * a subset of `wider`'s (rules compared whole). Sufficient, not necessary:
 * it answers false when unsure, so a pattern is only ever dropped from a
 * list when another one already takes what it takes.
 */
export function covers(wider: FilterPattern, narrower: FilterPattern): boolean {
  return Object.entries(wider).every(([key, expected]) => {
    const other = narrower[key];
    if (other === undefined) return false;
    if (Array.isArray(expected) !== Array.isArray(other)) return false;
    if (!Array.isArray(expected)) return covers(expected as FilterPattern, other as FilterPattern);
    const allowed = new Set((expected as readonly unknown[]).map((rule) => JSON.stringify(rule)));
    return (other as readonly unknown[]).every((rule) => allowed.has(JSON.stringify(rule)));
  });
}

/**
 * The fewest patterns of `patterns` that together take every event any of
 * them takes: one covered by another is left out (the first of two equal
 * ones is kept). An event source mapping holds at most a few filters
 * (Lambda's quota: 5), so a reader serving several consumers lists these.
 */
export function coveringPatterns(patterns: readonly FilterPattern[]): FilterPattern[] {
  return patterns.filter(
    (pattern, i) =>
      !patterns.some(
        (other, j) => j !== i && covers(other, pattern) && (!covers(pattern, other) || j < i),
      ),
  );
}
