/**
 * The dates a summary may name (docs/analytics.md#summary), apart from the
 * query's schema so the dashboard's date pickers hold the same bounds
 * without loading zod.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Bounded so that every date is four digits (a day after 9999-12-31 is
 * `+010000-01-01`, which sorts before it) and well inside what Date counts.
 */
export const FIRST_DATE = '2000-01-01';
export const LAST_DATE = '2100-12-31';

/** A real calendar day written `YYYY-MM-DD` (not 2026-02-30, not 2026-13-01). */
export function isCalendarDay(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  // Date.UTC rolls an overflowing month or day over: a real day comes back unchanged.
  const at = new Date(Date.UTC(year, month - 1, day));
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day;
}
