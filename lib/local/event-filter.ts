import type { FilterPattern } from '#workers';

/**
 * Lambda event filtering (the subset the stack uses and a bit more): a
 * pattern is an object whose leaves are arrays of allowed values or rules
 * (`prefix`, `exists`, `anything-but`, `numeric`). The local pollers apply the
 * same pattern the CDK event source mapping declares, so a record the real
 * mapping would drop never reaches a local handler either.
 */

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
