import * as z from 'zod/mini';
import { invalidRequest } from './errors.ts';
import { hourOf } from './summary-counters.ts';
import { inEnglish } from './validation-issues.ts';

/**
 * The days a summary covers: calendar days `from`..`to` in the zone `tz`
 * (defaults: the 30 days ending today, UTC; at most 366 days).
 */
const MAX_SUMMARY_DAYS = 366;
const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const isDate = (value: string) =>
  DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

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
    from: z.optional(z.string().check(z.refine(isDate, 'Must be a date, YYYY-MM-DD'))),
    to: z.optional(z.string().check(z.refine(isDate, 'Must be a date, YYYY-MM-DD'))),
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
 * 29 days before `to`): 400 when it spans more than 366 days.
 */
export function summaryRange(query: SummaryQuery, now: Date): SummaryRange {
  const tz = query.tz ?? 'UTC';
  const to = query.to ?? dateIn(now.getTime(), tz);
  const from = query.from ?? addDays(to, -(DEFAULT_DAYS - 1));
  if (from > to) {
    throw invalidRequest('The query string is not valid', [
      { path: 'from', code: 'custom', message: 'Must not be after to' },
    ]);
  }
  if (daysBetween(from, to) + 1 > MAX_SUMMARY_DAYS) {
    throw invalidRequest('The query string is not valid', [
      {
        path: 'to',
        code: 'custom',
        message: `The range may hold at most ${MAX_SUMMARY_DAYS} days`,
      },
    ]);
  }
  const dates: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) dates.push(date);
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
