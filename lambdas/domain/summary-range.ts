import * as z from 'zod/mini';
import { invalidRequest } from './errors.ts';
import { hourOf } from './summary-counters.ts';
import { FIRST_DATE, isCalendarDay, LAST_DATE } from './summary-dates.ts';
import { inEnglish } from './validation-issues.ts';

/**
 * The days a summary covers: calendar days `from`..`to` in the zone `tz`
 * (defaults: the 30 days ending today, UTC; at most 366 days, every date
 * between FIRST_DATE and LAST_DATE: docs/analytics.md#summary).
 */
const MAX_SUMMARY_DAYS = 366;
const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;
const inBounds = (value: string) => value >= FIRST_DATE && value <= LAST_DATE;

const summaryDate = () =>
  z.string().check(
    z.refine(isCalendarDay, 'Must be a real day, YYYY-MM-DD'),
    // Only for a real day, so a bad one gets one issue.
    z.refine(
      (value) => !isCalendarDay(value) || inBounds(value),
      `Must be between ${FIRST_DATE} and ${LAST_DATE}`,
    ),
  );

function isZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const summaryQuery = inEnglish(
  z.strictObject({
    from: z.optional(summaryDate()),
    to: z.optional(summaryDate()),
    tz: z.optional(
      z
        .string()
        .check(
          z.maxLength(64, 'Must be at most 64 characters'),
          z.refine(isZone, 'Must be an IANA time zone, e.g. Europe/Paris'),
        ),
    ),
  }),
);
export type SummaryQuery = z.output<typeof summaryQuery>;

export interface SummaryRange {
  from: string;
  to: string;
  tz: string;
  /** Every date of the range, in order. */
  dates: string[];
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The calendar date of an instant in a zone, `YYYY-MM-DD`. */
export function dateIn(instantMs: number, tz: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instantMs);
}

/**
 * The range a query names, with its defaults (`to` today in the zone, `from`
 * 29 days before `to`, not before FIRST_DATE): 400 when it spans more than
 * 366 days or leaves the dates a summary may name.
 */
export function summaryRange(query: SummaryQuery, now: Date): SummaryRange {
  const tz = query.tz ?? 'UTC';
  const to = query.to ?? dateIn(now.getTime(), tz);
  const earliest = addDays(to, -(DEFAULT_DAYS - 1));
  const from = query.from ?? (earliest < FIRST_DATE ? FIRST_DATE : earliest);
  // The query's dates are checked by its schema; these also hold for a caller that skips it.
  for (const [path, date] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (!isCalendarDay(date) || !inBounds(date)) {
      throw invalidRequest('The query string is not valid', [
        { path, code: 'custom', message: `Must be a day between ${FIRST_DATE} and ${LAST_DATE}` },
      ]);
    }
  }
  if (from > to) {
    throw invalidRequest('The query string is not valid', [
      { path: 'from', code: 'custom', message: 'Must not be after to' },
    ]);
  }
  const days = daysBetween(from, to) + 1;
  if (days > MAX_SUMMARY_DAYS) {
    throw invalidRequest('The query string is not valid', [
      {
        path: 'to',
        code: 'custom',
        message: `The range may hold at most ${MAX_SUMMARY_DAYS} days`,
      },
    ]);
  }
  // Counted, not compared: the loop runs `days` times (at most 366) whatever the dates.
  const dates = Array.from({ length: days }, (_, i) => addDays(from, i));
  return { from, to, tz, dates };
}

/**
 * The UTC hours (`YYYYMMDDHH`) whose buckets can hold the range's days: from
 * the UTC midnight before local midnight of `from` (no zone is more than 14
 * hours ahead of UTC) to an hour after local midnight of the day after `to`
 * (none more than 12 behind). Starting at a UTC midnight lets a waitlist's
 * running total take the days before it from whole-day counts.
 */
export function hoursToRead(range: SummaryRange): { first: string; last: string } {
  const start = Date.parse(`${range.from}T00:00:00Z`) - 15 * 3_600_000;
  const end = Date.parse(`${addDays(range.to, 1)}T00:00:00Z`) + 13 * 3_600_000;
  const hour = (ms: number) => hourOf(new Date(ms).toISOString());
  return { first: `${hour(start).slice(0, 8)}00`, last: hour(end) };
}
