/**
 * How an answer's text is read as a number or a date, for the field checks
 * (answer-checks.ts) and the form's logic (form-logic.ts) alike: a condition
 * `gt 3` on a number field and the check of that field agree on what "3" is.
 * Pure and free of imports, so the browser bundles it with the evaluator.
 */

// Plain decimal notation with an optional exponent (what <input type=number> sends);
// Number() alone would also take hex, binary, "Infinity" and "".
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// By hand: Date.UTC maps years 0-99 to 1900-1999.
const daysInMonth = (year: number, month: number) =>
  month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);

/** `value` (already trimmed) as a finite decimal number, or null. */
export function decimalOf(value: string): number | null {
  if (!DECIMAL.test(value)) return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

/** Whether `value` (already trimmed) is a real day written `YYYY-MM-DD`. */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * A calendar date as a number that orders as the days do (`YYYYMMDD`), or
 * null: dates compare as dates, not as text.
 */
export function dayNumberOf(value: string): number | null {
  return isCalendarDate(value) ? Number(value.replaceAll('-', '')) : null;
}
