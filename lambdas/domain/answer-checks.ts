import { decimalOf, isCalendarDate } from './answer-values.ts';
import { fieldPattern, ratingScale } from './field-rules.ts';
import type { FieldDefinition } from './form-model.ts';
import type { AnswerProblem, AnswerReason } from './submission-model.ts';

/**
 * The form's field checks on a post's answers (processing step 12; the rules
 * and reason codes: docs/submit.md#field-checks). A failing answer does
 * not reject the post: the problems are stored with it as `data._invalid`.
 */

const MAX_EMAIL_LENGTH = 254;
// One @, no whitespace, a domain of at least two non-empty dot-separated labels.
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/u;
// A whole number without a leading zero: `0`, `7`, `10` (never `07` or `7.0`).
const RATING = /^(?:0|[1-9]\d?)$/;
const TEL = /^[0-9 +\-().]{5,32}$/;
const MIN_TEL_DIGITS = 5;
const HTTP_URL = /^https?:\/\/\S+$/i;

const patterns = new Map<string, RegExp | null>();

/**
 * The compiled pattern of a field, once per container. Saved patterns were
 * compiled and checked as safe on save; one that no longer compiles (a rule
 * change since) is skipped rather than failing every post to the form.
 */
function compiled(pattern: string): RegExp | null {
  let regex = patterns.get(pattern);
  if (regex === undefined) {
    try {
      regex = fieldPattern(pattern);
    } catch {
      regex = null;
    }
    patterns.set(pattern, regex);
  }
  return regex;
}

const codePoints = (value: string) => {
  let count = 0;
  for (const _ of value) count++;
  return count;
};

function isHttpUrl(value: string): boolean {
  if (!HTTP_URL.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function isTel(value: string): boolean {
  if (!TEL.test(value)) return false;
  return value.replace(/\D/g, '').length >= MIN_TEL_DIGITS;
}

/**
 * Whether `value` is options joined by `,` (how repeated checkbox names
 * arrive). Walks positions instead of splitting, so an option that itself
 * holds a comma ("Yes, please") still matches.
 */
function isOptionList(value: string, options: readonly string[]): boolean {
  const reachable = new Set<number>([0]);
  for (let start = 0; start < value.length; start++) {
    if (!reachable.has(start)) continue;
    for (const option of options) {
      if (option === '' || !value.startsWith(option, start)) continue;
      const end = start + option.length;
      if (end === value.length) return true;
      if (value[end] === ',') reachable.add(end + 1);
    }
  }
  return false;
}

/** The first problem of one non-blank answer, or null (also what a prefilled value must pass). */
export function problemOf(field: FieldDefinition, value: string): AnswerReason | null {
  // Surrounding spaces mean nothing in formatted values (mobile keyboards add them).
  const trimmed = value.trim();
  switch (field.type) {
    case 'email':
      return trimmed.length <= MAX_EMAIL_LENGTH && EMAIL.test(trimmed) ? null : 'invalid_email';
    case 'number': {
      const number = decimalOf(trimmed);
      if (number === null) return 'invalid_number';
      if (field.min !== undefined && number < field.min) return 'too_small';
      if (field.max !== undefined && number > field.max) return 'too_large';
      return null;
    }
    case 'text': {
      const length = codePoints(value);
      if (field.minLength !== undefined && length < field.minLength) return 'too_short';
      if (field.maxLength !== undefined && length > field.maxLength) return 'too_long';
      const pattern = field.pattern === undefined ? null : compiled(field.pattern);
      if (pattern && !pattern.test(value)) return 'pattern_mismatch';
      return null;
    }
    case 'textarea':
    case 'hidden':
      return field.maxLength !== undefined && codePoints(value) > field.maxLength
        ? 'too_long'
        : null;
    case 'date':
      return isCalendarDate(trimmed) ? null : 'invalid_date';
    case 'select':
    case 'radio':
      // Options are required on save; a definition without them checks nothing.
      if (!field.options?.length) return null;
      return field.options.includes(value) ? null : 'invalid_option';
    case 'checkbox':
      // Without options a checkbox is a single tick: any value says "ticked".
      if (!field.options?.length) return null;
      return isOptionList(value, field.options) ? null : 'invalid_option';
    case 'rating': {
      const { min, max } = ratingScale(field);
      const score = Number(trimmed);
      return RATING.test(trimmed) && score >= min && score <= max ? null : 'invalid_rating';
    }
    case 'tel':
      return isTel(trimmed) ? null : 'invalid_tel';
    case 'url':
      return isHttpUrl(trimmed) ? null : 'invalid_url';
    case 'file':
      return null;
  }
}

/**
 * Problems of the answers against the form's fields, in field order, at most
 * one per field (the first failing check). `fields` null (a custom form
 * without definitions) checks nothing. A blank answer is only a problem for
 * a required field; a required `file` field needs an uploaded file under its
 * id. Answers without a definition are kept and not checked. Select, radio
 * and checkbox options match exactly; email, number, date, rating, tel and
 * url ignore surrounding whitespace; text lengths count code points.
 */
export function checkAnswers(
  fields: FieldDefinition[] | null,
  data: Record<string, string>,
  files: ReadonlyArray<{ field: string }>,
): AnswerProblem[] {
  if (!fields) return [];
  const problems: AnswerProblem[] = [];
  for (const field of fields) {
    let reason: AnswerReason | null;
    if (field.type === 'file') {
      const uploaded = files.some((file) => file.field === field.id);
      reason = field.required && !uploaded ? 'required' : null;
    } else {
      // hasOwn: a field named `constructor` must not read Object.prototype's.
      const value = Object.hasOwn(data, field.id) ? data[field.id] : undefined;
      if (value === undefined || value.trim() === '') reason = field.required ? 'required' : null;
      else reason = problemOf(field, value);
    }
    if (reason) problems.push({ fieldId: field.id, reason });
  }
  return problems;
}

/** The JSON text stored as `data._invalid`: `[{ fieldId, reason }, ...]`. */
export function invalidMarker(problems: readonly AnswerProblem[]): string {
  return JSON.stringify(problems.map(({ fieldId, reason }) => ({ fieldId, reason })));
}
