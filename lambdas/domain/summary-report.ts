import { ratingScale } from './field-rules.ts';
import type { FieldDefinition, FormRecord } from './form-model.ts';
import { funnelOf } from './funnel.ts';
import {
  type Counters,
  DEVICES,
  DROP_REASONS,
  hourStart,
  NOT_CONFIRMED_COUNTER,
} from './summary-counters.ts';
import { dateIn, type SummaryRange } from './summary-range.ts';

/**
 * The summary of a form over a range of days (docs/analytics.md#summary),
 * from its hour buckets: each bucket counts on the date, in the range's
 * zone, at which its hour starts.
 */

export interface HourBucket {
  /** `YYYYMMDDHH`, UTC. */
  hour: string;
  counters: Counters;
}

type FieldSummary =
  | {
      kind: 'choice';
      answered: number;
      /** Each option now (renamed ones' answers included), then `(other)` when any. */
      counts: Record<string, number>;
      /** Answers under words no longer among the options, by those words. */
      former: Record<string, number>;
    }
  | { kind: 'checkbox'; answered: number; checked: number }
  | {
      kind: 'rating';
      answered: number;
      /** The field's scale: 1 for stars, 0 for a 0–max score. */
      min: number;
      max: number;
      average: number | null;
      counts: Record<string, number>;
    }
  | {
      kind: 'number';
      answered: number;
      min: number | null;
      max: number | null;
      average: number | null;
    }
  | { kind: 'text'; answered: number };

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Sums of every counter over the buckets given. */
function sum(buckets: readonly HourBucket[]): Counters {
  const total: Counters = {};
  for (const { counters } of buckets) {
    for (const [name, value] of Object.entries(counters)) total[name] = (total[name] ?? 0) + value;
  }
  return total;
}

/** `prefix` counters as name → count, without the prefix. */
function withPrefix(total: Counters, prefix: string): Record<string, number> {
  const picked: Record<string, number> = {};
  for (const [name, value] of Object.entries(total)) {
    if (name.startsWith(prefix) && value !== 0) picked[name.slice(prefix.length)] = value;
  }
  return picked;
}

/** By count, most first, then by name. */
function top<K extends 'code' | 'host'>(counts: Record<string, number>, key: K, limit = 10) {
  return (
    Object.entries(counts)
      .filter(([, count]) => count > 0)
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, limit)
      // A computed key widens to an index signature: say which key it is.
      .map(([name, count]) => ({ [key]: name, count }) as Record<K, string> & { count: number })
  );
}

function fieldSummary(field: FieldDefinition, total: Counters): FieldSummary {
  const answered = total[`a:${field.id}`] ?? 0;
  switch (field.type) {
    case 'select':
    case 'radio':
      return choiceSummary(field, total, answered);
    case 'checkbox':
      return { kind: 'checkbox', answered, checked: total[`c:${field.id}`] ?? 0 };
    case 'rating': {
      const { min, max } = ratingScale(field);
      const counts: Record<string, number> = {};
      let points = 0;
      let rated = 0;
      for (let n = min; n <= max; n++) {
        const count = total[`r:${field.id}:${n}`] ?? 0;
        counts[String(n)] = count;
        points += n * count;
        rated += count;
      }
      return {
        kind: 'rating',
        answered,
        min,
        max,
        average: rated ? round2(points / rated) : null,
        counts,
      };
    }
    case 'number': {
      const values = Object.entries(withPrefix(total, `n:${field.id}:`)).filter(([, c]) => c > 0);
      let sumOf = 0;
      let counted = 0;
      let min: number | null = null;
      let max: number | null = null;
      for (const [value, count] of values) {
        const number = Number(value);
        sumOf += number * count;
        counted += count;
        min = min === null ? number : Math.min(min, number);
        max = max === null ? number : Math.max(max, number);
      }
      return {
        kind: 'number',
        answered,
        min,
        max,
        average: counted ? round2(sumOf / counted) : null,
      };
    }
    default:
      return { kind: 'text', answered };
  }
}

/**
 * A choice field's rows, which always add up to `answered`
 * (docs/analytics.md#summary): each option now, with the answers of the
 * former options renamed to it (counted under the old words before the
 * rename, under the new since); the answers of words no longer among the
 * options (kept apart, or from before the field kept its former options)
 * by those words in `former`; `(other)` for answers that named no option
 * when received, and any answer counted without an option (the field was
 * another type then).
 */
function choiceSummary(field: FieldDefinition, total: Counters, answered: number): FieldSummary {
  const options = field.options ?? [];
  const renamed = field.formerOptions ?? {};
  // Without a prototype: an option may be named `__proto__` or `constructor`.
  const counts: Record<string, number> = Object.create(null);
  for (const option of options) counts[option] = 0;
  const former: Record<string, number> = Object.create(null);
  let other = 0;
  for (const [words, count] of Object.entries(withPrefix(total, `o:${field.id}:`))) {
    if (Object.hasOwn(counts, words)) counts[words]! += count;
    else if (words === '(other)') other += count;
    else if (
      Object.hasOwn(renamed, words) &&
      typeof renamed[words] === 'string' &&
      Object.hasOwn(counts, renamed[words])
    )
      counts[renamed[words]]! += count;
    else former[words] = (former[words] ?? 0) + count;
  }
  const rows = [...Object.values(counts), ...Object.values(former), other].reduce((a, b) => a + b);
  other += Math.max(0, answered - rows);
  if (other !== 0) counts['(other)'] = other;
  for (const [words, count] of Object.entries(former)) if (count === 0) delete former[words];
  return { kind: 'choice', answered, counts, former };
}

/** The median of a histogram of whole minutes; null when empty. */
function medianOf(histogram: Record<string, number>): number | null {
  const entries = Object.entries(histogram)
    .map(([value, count]) => [Number(value), count] as const)
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => a - b);
  const total = entries.reduce((n, [, count]) => n + count, 0);
  if (total === 0) return null;
  const at = (rank: number) => {
    let seen = 0;
    for (const [value, count] of entries) {
      seen += count;
      if (rank < seen) return value;
    }
    return entries.at(-1)![0];
  };
  return total % 2 === 1 ? at((total - 1) / 2) : (at(total / 2 - 1) + at(total / 2)) / 2;
}

const choiceFields = (fields: readonly FieldDefinition[]) =>
  fields.filter((f) => f.type === 'radio' || f.type === 'select');

/** The rsvp form's attending field: `attending`, else the first choice offering yes and no. */
function attendingField(fields: readonly FieldDefinition[]): FieldDefinition | undefined {
  const choices = choiceFields(fields);
  const offersYesNo = (field: FieldDefinition) => {
    const options = (field.options ?? []).map((o) => o.trim().toLowerCase());
    return options.includes('yes') && options.includes('no');
  };
  return choices.find((f) => f.id === 'attending') ?? choices.find(offersYesNo);
}

interface Nps {
  promoters: number;
  passives: number;
  detractors: number;
  score: number;
}

/** The block of the form's type (docs/analytics.md#summary); a custom form has none. */
type ByTypeBlock =
  | { unread: number; medianMinutesToFirstRead: number | null }
  | { signups: number; uniqueEmails: number; cumulative: { date: string; total: number }[] }
  | {
      ratingField: string | null;
      average: number | null;
      distribution: Record<string, number>;
      trend: { date: string; average: number | null }[];
      nps: Nps | null;
    }
  | { yes: number; no: number; maybe: number; guests: number }
  | Record<string, never>;

function byTypeBlock(
  form: Pick<FormRecord, 'type' | 'fields'>,
  total: Counters,
  perDay: Map<string, Counters>,
  range: SummaryRange,
  signupsBefore: number,
): ByTypeBlock {
  const fields = form.fields ?? [];
  switch (form.type) {
    case 'contact':
      return {
        unread: total.u ?? 0,
        medianMinutesToFirstRead: medianOf(withPrefix(total, 'm:')),
      };
    case 'waitlist': {
      let running = signupsBefore;
      return {
        signups: total.s ?? 0,
        uniqueEmails: total.e ?? 0,
        cumulative: range.dates.map((date) => {
          running += perDay.get(date)?.s ?? 0;
          return { date, total: running };
        }),
      };
    }
    case 'feedback': {
      const rating = fields.find((f) => f.type === 'rating');
      if (!rating) {
        return { ratingField: null, average: null, distribution: {}, trend: [], nps: null };
      }
      const summary = fieldSummary(rating, total) as Extract<FieldSummary, { kind: 'rating' }>;
      const trend = range.dates.map((date) => {
        const day = fieldSummary(rating, perDay.get(date) ?? {}) as typeof summary;
        return { date, average: day.average };
      });
      let nps: Nps | null = null;
      // A 0–10 (or 1–10) question: 0 to 6 detract (docs/analytics.md#summary).
      if (summary.max === 10) {
        const count = (from: number, to: number) => {
          let n = 0;
          for (let score = from; score <= to; score++) n += summary.counts[String(score)] ?? 0;
          return n;
        };
        const promoters = count(9, 10);
        const passives = count(7, 8);
        const detractors = count(0, 6);
        const answers = promoters + passives + detractors;
        nps = {
          promoters,
          passives,
          detractors,
          score: answers ? Math.round((100 * (promoters - detractors)) / answers) : 0,
        };
      }
      return {
        ratingField: rating.id,
        average: summary.average,
        distribution: summary.counts,
        trend,
        nps,
      };
    }
    case 'rsvp': {
      const attending = attendingField(fields);
      const guestsField =
        fields.find((f) => f.id === 'guests' && f.type === 'number') ??
        fields.find((f) => f.type === 'number');
      const answers = attending ? withPrefix(total, `o:${attending.id}:`) : {};
      const answer = (word: string) =>
        Object.entries(answers)
          .filter(([option]) => option.trim().toLowerCase() === word)
          .reduce((n, [, count]) => n + count, 0);
      return {
        yes: answer('yes'),
        no: answer('no'),
        maybe: answer('maybe'),
        guests: attending && guestsField ? (total[`g:${attending.id}:${guestsField.id}`] ?? 0) : 0,
      };
    }
    default:
      return {};
  }
}

export function summaryReport(input: {
  form: Pick<FormRecord, 'id' | 'type' | 'fields'> & Partial<Pick<FormRecord, 'pages'>>;
  range: SummaryRange;
  buckets: readonly HourBucket[];
  /**
   * Waitlist signups of the UTC days before the first bucket given; those of
   * buckets before the range are added here (the cumulative line starts there).
   */
  signupDaysBefore: number;
  now: Date;
}) {
  const { form, range } = input;
  const inRange = new Set(range.dates);
  const perDay = new Map<string, Counters>();
  const kept: HourBucket[] = [];
  let signupsBefore = input.signupDaysBefore;
  for (const bucket of input.buckets) {
    const date = dateIn(hourStart(bucket.hour), range.tz);
    if (date < range.from) signupsBefore += bucket.counters.s ?? 0;
    if (!inRange.has(date)) continue;
    kept.push(bucket);
    const day = perDay.get(date) ?? {};
    for (const [name, value] of Object.entries(bucket.counters))
      day[name] = (day[name] ?? 0) + value;
    perDay.set(date, day);
  }
  const total = sum(kept);
  const droppedOf = (counters: Counters) =>
    DROP_REASONS.reduce((n, reason) => n + (counters[`d:${reason}`] ?? 0), 0);
  const views = total.v ?? 0;
  const stored = total.s ?? 0;
  const conversion = conversionOf(views, stored, total.nv ?? 0);
  return {
    formId: form.id,
    type: form.type,
    from: range.from,
    to: range.to,
    tz: range.tz,
    asOf: input.now.toISOString(),
    totals: {
      views,
      stored,
      spam: total.p ?? 0,
      dropped: droppedOf(total),
      tests: total.t ?? 0,
      ...conversion,
    },
    days: range.dates.map((date) => {
      const day = perDay.get(date) ?? {};
      return {
        date,
        views: day.v ?? 0,
        stored: day.s ?? 0,
        spam: day.p ?? 0,
        dropped: droppedOf(day),
      };
    }),
    dropped: countsOf(DROP_REASONS, (reason) => total[`d:${reason}`] ?? 0),
    // Posts never confirmed by email, deleted at their link's expiry (docs/submit.md#confirm-by-email).
    notConfirmed: total[NOT_CONFIRMED_COUNTER] ?? 0,
    devices: countsOf(DEVICES, (device) => total[`dv:${device}`] ?? 0),
    countries: top(withPrefix(total, 'cc:'), 'code'),
    referrers: top(withPrefix(total, 'rf:'), 'host'),
    fields: Object.fromEntries(
      (form.fields ?? []).map((field) => [field.id, fieldSummary(field, total)]),
    ),
    byType: byTypeBlock(form, total, perDay, range, signupsBefore),
    funnel: funnelOf(total, form.pages),
  };
}

/**
 * The conversion rate (docs/analytics.md#views): the stored posts of pages
 * that counted their views, over those views. Posts from a page that counts
 * none (`nv`) stay out, and are counted apart; a rate over 1 means views were
 * not counted for some posts (a form pasted before it carried the view
 * image, whose posts are not marked): then no rate, `viewsNotCounted`, rather
 * than 366.7 %. Without views, no rate either.
 */
function conversionOf(views: number, stored: number, withoutViews: number) {
  const counted = stored - withoutViews;
  const rate = views > 0 ? counted / views : null;
  const trusted = rate !== null && rate <= 1;
  return {
    conversionRate: trusted ? Math.round(rate * 10_000) / 10_000 : null,
    /** Stored posts of pages that count no views: not in the rate. */
    postsWithoutViews: withoutViews,
    /** More posts than views: some pages' views were not counted, so no rate is given. */
    viewsNotCounted: rate !== null && !trusted,
  };
}

/** A count for each of a closed set of names: every name present, as the answer promises. */
function countsOf<K extends string>(names: readonly K[], countOf: (name: K) => number) {
  return Object.fromEntries(names.map((name) => [name, countOf(name)])) as Record<K, number>;
}
