import type { FieldDefinition } from './model.ts';

/** One row of a submission as the dashboard shows it: a field's label and answer, and its problem. */
export interface AnswerRow {
  id: string;
  label: string;
  value: string | undefined;
  problem: string | undefined;
}

const REASONS: Record<string, string> = {
  required: 'Required, but left empty',
  invalid_email: 'Not an email address',
  invalid_number: 'Not a number',
  too_small: 'Below the smallest allowed',
  too_large: 'Above the largest allowed',
  too_short: 'Shorter than allowed',
  too_long: 'Longer than allowed',
  pattern_mismatch: 'Does not match the required format',
  invalid_option: 'Not one of the options',
  invalid_date: 'Not a date',
  invalid_url: 'Not a web address',
  invalid_tel: 'Not a phone number',
  invalid_rating: 'Not a rating on its scale',
};

/** The reasons `data._invalid` lists, by field id; an unreadable report gives none. */
function problemsOf(report: string | undefined): Map<string, string> {
  const problems = new Map<string, string>();
  if (!report) return problems;
  try {
    for (const each of JSON.parse(report) as { fieldId: string; reason: string }[]) {
      problems.set(each.fieldId, REASONS[each.reason] ?? each.reason);
    }
  } catch {
    // A report the dashboard cannot read is shown as an answer-less problem elsewhere.
  }
  return problems;
}

/**
 * The answers in the form's field order, labelled, each with its problem;
 * then answers to names the form does not define, in the order they came.
 */
export function answerRows(
  data: Record<string, string>,
  fields: FieldDefinition[] | null,
): AnswerRow[] {
  const problems = problemsOf(data._invalid);
  const known = new Set((fields ?? []).map((field) => field.id));
  const defined = (fields ?? []).map((field) => ({
    id: field.id,
    label: field.label || field.id,
    value: data[field.id],
    problem: problems.get(field.id),
  }));
  const others = Object.entries(data)
    .filter(([name]) => name !== '_invalid' && !known.has(name))
    .map(([name, value]) => ({ id: name, label: name, value, problem: problems.get(name) }));
  return [...defined, ...others];
}

/** The browser in a User-Agent, in a word or two (the full string is shown too). */
export function browserOf(userAgent: string | undefined): string | undefined {
  if (!userAgent) return undefined;
  const known: [RegExp, string][] = [
    [/Edg\//, 'Edge'],
    [/OPR\//, 'Opera'],
    [/Firefox\//, 'Firefox'],
    [/Chrome\//, 'Chrome'],
    [/Safari\//, 'Safari'],
    [/curl\//i, 'curl'],
  ];
  return known.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'Other';
}

const regions = new Intl.DisplayNames(undefined, { type: 'region' });
export function countryName(code: string | undefined): string | undefined {
  if (!code) return undefined;
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
}

export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
