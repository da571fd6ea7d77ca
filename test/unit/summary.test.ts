import { describe, expect, it } from 'vitest';
import type { Submission } from '#domain/submission-model.ts';
import {
  countersOf,
  countInto,
  DROP_REASONS,
  difference,
  dropCounter,
  emptyRecount,
  referrerHost,
  removalOf,
} from '#domain/summary-counters.ts';
import { FIRST_DATE, isCalendarDay, LAST_DATE } from '#domain/summary-dates.ts';
import { hoursToRead, summaryQuery, summaryRange } from '#domain/summary-range.ts';
import { summaryReport } from '#domain/summary-report.ts';
import { random } from '#test/support/seeded-random.ts';

const NOW = new Date('2026-11-24T22:30:00Z');

function submission(overrides: Partial<Submission> = {}): Submission {
  return {
    id: '01900000-0000-7000-8000-000000000000',
    formId: 'f',
    data: {},
    meta: { userAgent: 'x', referrer: '' },
    read: false,
    starred: false,
    isSpam: false,
    isTest: false,
    createdAt: '2026-11-20T10:15:00.000Z',
    ...overrides,
  } as Submission;
}

describe('the summary range', () => {
  it('defaults to the 30 days ending today in the zone', () => {
    // 22:30 UTC is already the 25th in Tokyo.
    expect(summaryRange({ tz: 'Asia/Tokyo' }, NOW)).toMatchObject({
      from: '2026-10-27',
      to: '2026-11-25',
      tz: 'Asia/Tokyo',
    });
    expect(summaryRange({}, NOW).dates).toHaveLength(30);
  });

  it('holds 366 days at most, and from may not follow to', () => {
    expect(summaryRange({ from: '2024-01-01', to: '2024-12-31' }, NOW).dates).toHaveLength(366);
    expect(() => summaryRange({ from: '2024-01-01', to: '2025-01-01' }, NOW)).toThrow(/not valid/);
    expect(() => summaryRange({ from: '2026-11-02', to: '2026-11-01' }, NOW)).toThrow(/not valid/);
  });

  it('refuses a day that is not on the calendar, naming from or to, instead of throwing a RangeError', () => {
    for (const [query, path] of [
      [{ from: '2026-13-01' }, 'from'],
      [{ to: '2026-01-32' }, 'to'],
      [{ to: '2026-02-30' }, 'to'],
      [{ from: '2026-04-31' }, 'from'],
      [{ to: '2026-00-10' }, 'to'],
      [{ from: '2025-02-29' }, 'from'],
    ] as const) {
      const parsed = summaryQuery.safeParse(query);
      expect(parsed.success, JSON.stringify(query)).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual([path]);
    }
    expect(summaryQuery.safeParse({ from: '2024-02-29', to: '2024-03-01' }).success).toBe(true);
  });

  it(`bounds every date to ${FIRST_DATE}..${LAST_DATE}, in the schema and in the range itself`, () => {
    for (const [query, path] of [
      [{ to: '9999-12-31' }, 'to'],
      [{ from: '1999-12-31' }, 'from'],
      [{ to: '2101-01-01' }, 'to'],
      [{ from: '0000-01-01' }, 'from'],
    ] as const) {
      const parsed = summaryQuery.safeParse(query);
      expect(
        parsed.error?.issues.map((issue) => issue.path.join('.')),
        query.toString(),
      ).toEqual([path]);
      // A caller that skips the schema gets the same 400, never an endless loop.
      expect(() => summaryRange(query, NOW)).toThrow(/not valid/);
    }
    expect(summaryRange({ from: '2100-12-01', to: LAST_DATE }, NOW).dates.at(-1)).toBe(LAST_DATE);
    // The default start stops at the first date a summary may name.
    expect(summaryRange({ to: '2000-01-05' }, NOW)).toMatchObject({
      from: FIRST_DATE,
      dates: ['2000-01-01', '2000-01-02', '2000-01-03', '2000-01-04', '2000-01-05'],
    });
  });

  it('holds, for any two days in bounds, each day from from to to once and in order, or refuses the range (seeded)', () => {
    const rng = random(29);
    const first = Date.parse(`${FIRST_DATE}T00:00:00Z`);
    const span = Date.parse(`${LAST_DATE}T00:00:00Z`) - first;
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    for (let run = 0; run < 500; run++) {
      const from = day(first + Math.floor(rng.next() * (span / 86_400_000)) * 86_400_000);
      // Mostly near ranges (some of 366 or 367 days), sometimes anywhere.
      const to =
        rng.next() < 0.8
          ? day(Date.parse(`${from}T00:00:00Z`) + (rng.int(380) - 10) * 86_400_000)
          : day(first + Math.floor(rng.next() * (span / 86_400_000)) * 86_400_000);
      const within = to >= from && to <= LAST_DATE;
      const days =
        (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
      if (!within || days > 366) {
        expect(() => summaryRange({ from, to }, NOW), `${from}..${to}`).toThrow(/not valid/);
        continue;
      }
      const { dates } = summaryRange({ from, to }, NOW);
      expect(dates.length, `${from}..${to}`).toBe(days);
      expect(dates[0]).toBe(from);
      expect(dates.at(-1)).toBe(to);
      const wrong = dates.filter(
        (date, i) => !isCalendarDay(date) || (i > 0 && date <= dates[i - 1]!),
      );
      expect(wrong, `${from}..${to}`).toEqual([]);
    }
  });

  it('knows the calendar: month lengths, leap years, four digits', () => {
    expect(['2024-02-29', '2000-02-29', '2026-12-31', '2026-04-30'].map(isCalendarDay)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(
      ['2100-02-29', '2026-02-29', '2026-06-31', '2026-1-05', '20260105', '+02026-01-05'].map(
        isCalendarDay,
      ),
    ).toEqual([false, false, false, false, false, false]);
  });

  it('reads the UTC hours from a UTC midnight 15 hours or more before the first local midnight to 13 after the last', () => {
    const range = summaryRange({ from: '2026-03-10', to: '2026-03-11', tz: 'UTC' }, NOW);
    expect(hoursToRead(range)).toEqual({ first: '2026030900', last: '2026031213' });
  });
});

describe('the counters of a submission', () => {
  const form = {
    type: 'rsvp' as const,
    fields: [
      { id: 'attending', type: 'radio', label: 'A', required: true, options: ['Yes', 'No'] },
      { id: 'guests', type: 'number', label: 'G', required: false },
      { id: 'note', type: 'text', label: 'N', required: false },
    ],
  } as Parameters<typeof countersOf>[1];

  it('counts a stored answer under its field, device, country, referrer host and unread', () => {
    const counters = countersOf(
      submission({
        data: { attending: ' YES ', guests: '2.50', note: '  ' },
        meta: {
          userAgent: 'x',
          referrer: 'https://Shop.Example.com/a?b',
          country: 'FR',
          deviceClass: 'mobile',
        },
      }),
      form,
    );
    expect(counters).toEqual({
      s: 1,
      u: 1,
      'dv:mobile': 1,
      'cc:FR': 1,
      'rf:shop.example.com': 1,
      'a:attending': 1,
      // Counted as the option it is in another case, as its guests are.
      'o:attending:Yes': 1,
      'a:guests': 1,
      'n:guests:2.5': 1,
      'g:attending:guests': 2.5,
    });
  });

  it('counts spam and tests alone, and a change by the difference of its two states', () => {
    const stored = countersOf(submission({ data: { attending: 'Yes' } }), form);
    const spam = countersOf(submission({ data: { attending: 'Yes' }, isSpam: true }), form);
    expect(spam).toEqual({ p: 1 });
    // A test moved to spam counts as spam, where the inbox shows it; back out, as a test again.
    const test = countersOf(submission({ isTest: true }), form);
    const testInSpam = countersOf(submission({ isTest: true, isSpam: true }), form);
    expect(test).toEqual({ t: 1 });
    expect(testInSpam).toEqual({ p: 1 });
    expect(difference(test, testInSpam)).toEqual({ t: -1, p: 1 });
    expect(difference(stored, spam)).toEqual({
      s: -1,
      u: -1,
      p: 1,
      'dv:unknown': -1,
      'a:attending': -1,
      'o:attending:Yes': -1,
    });
    // A deleted submission stays in its day; only unread, a state of now, goes.
    expect(removalOf(stored)).toEqual({ u: -1 });
  });

  it('matches a choice answer to its option ignoring case and surrounding spaces; other answers are (other)', () => {
    const options = ['Yes', 'No', 'Maybe', 'maybe later'];
    const counted = [
      'Yes',
      'YES',
      ' yes ',
      'no',
      'NO ',
      'maybe',
      'Maybe later',
      'nope',
      'y e s',
    ].map((answer) =>
      countersOf(submission({ data: { attending: answer } }), {
        ...form,
        fields: [{ ...form.fields![0]!, options }],
      }),
    );
    expect(counted.map((c) => Object.keys(c).find((name) => name.startsWith('o:')))).toEqual([
      'o:attending:Yes',
      'o:attending:Yes',
      'o:attending:Yes',
      'o:attending:No',
      'o:attending:No',
      'o:attending:Maybe',
      'o:attending:maybe later',
      'o:attending:(other)',
      'o:attending:(other)',
    ]);
  });

  it('times the first read in whole minutes', () => {
    const read = submission({ read: true, firstReadAt: '2026-11-20T12:14:59.000Z' });
    expect(countersOf(read, { type: 'contact', fields: null })).toMatchObject({ 'm:119': 1 });
  });

  it('names a dropped counter for every reason a post is dropped after its form is found', () => {
    for (const code of [
      'honeypot',
      'fill_time',
      'blocked_ip',
      'blocked_country',
      'spam_cap',
      'rate_limited',
      'form_closed',
      'submission_limit_reached',
      'captcha_failed',
      'captcha_unavailable',
    ]) {
      const counter = dropCounter(code);
      expect(
        DROP_REASONS.map((r) => `d:${r}`),
        code,
      ).toContain(counter);
    }
    expect(dropCounter('origin_not_allowed')).toBeUndefined();
    expect(dropCounter('empty_submission')).toBeUndefined();
  });

  it('keeps only http(s) referrer hosts', () => {
    expect(referrerHost('https://a.example/x')).toBe('a.example');
    expect(referrerHost('android-app://com.x')).toBeUndefined();
    expect(referrerHost('not a url')).toBeUndefined();
  });

  it('a waitlist recount counts an address once, at its first stored signup', () => {
    const waitlist = { type: 'waitlist' as const, fields: null };
    const recount = emptyRecount();
    const at = (hour: string, id: string) =>
      submission({ id, createdAt: `2026-11-${hour}:10:00.000Z` });
    countInto(recount, { submission: at('20T10', 'a'), email: 'Ada@x.io' }, waitlist);
    countInto(recount, { submission: at('20T11', 'b'), email: 'ada@x.io' }, waitlist);
    countInto(
      recount,
      { submission: { ...at('21T09', 'c'), isSpam: true }, email: 'b@x.io' },
      waitlist,
    );
    expect(recount.firstSignups).toEqual(new Map([['ada@x.io', 'a']]));
    expect(recount.signupDays).toEqual(new Map([['20261120', 2]]));
    expect(recount.hours.get('2026112010')).toMatchObject({ s: 1, e: 1 });
    expect(recount.hours.get('2026112011')?.e).toBeUndefined();
  });
});

describe('the summary report', () => {
  const range = summaryRange({ from: '2026-11-20', to: '2026-11-21', tz: 'Asia/Kolkata' }, NOW);

  it('counts a bucket on the local date at which its hour starts (a half-hour zone’s straddling hour on the day before)', () => {
    const report = summaryReport({
      form: { id: 'f', type: 'contact', fields: null },
      range,
      buckets: [
        // 18:00 UTC is 23:30 on the 20th in Kolkata; 19:00 UTC is 00:30 on the 21st.
        { hour: '2026112018', counters: { s: 1, v: 4 } },
        { hour: '2026112019', counters: { s: 2, 'm:10': 1, 'm:30': 1, u: 1 } },
        // Before the range: 18:00 UTC on the 19th is 23:30 on the 19th there.
        { hour: '2026111918', counters: { s: 5 } },
      ],
      signupDaysBefore: 0,
      now: NOW,
    });
    expect(report.days).toEqual([
      { date: '2026-11-20', views: 4, stored: 1, spam: 0, dropped: 0 },
      { date: '2026-11-21', views: 0, stored: 2, spam: 0, dropped: 0 },
    ]);
    expect(report.totals).toEqual({
      views: 4,
      stored: 3,
      spam: 0,
      dropped: 0,
      tests: 0,
      conversionRate: 0.75,
      postsWithoutViews: 0,
      viewsNotCounted: false,
    });
    expect(report.byType).toEqual({ unread: 1, medianMinutesToFirstRead: 20 });
  });

  it('counts an rsvp form’s yes, no and maybe whatever their case, the same in its block and its field', () => {
    const rsvp = {
      id: 'f',
      type: 'rsvp' as const,
      fields: [
        {
          id: 'attending',
          type: 'radio',
          label: 'A',
          required: true,
          options: ['Yes', 'No', 'Maybe'],
        },
        { id: 'guests', type: 'number', label: 'G', required: false },
      ],
    } as Parameters<typeof summaryReport>[0]['form'];
    const answers: [string, string][] = [
      ['Yes', '1'],
      ['YES', '2'],
      [' yes ', '3'],
      ['no', ''],
      ['MAYBE', ''],
      ['perhaps', '4'],
    ];
    const counters = answers.map(([attending, guests], i) =>
      countersOf(
        submission({ id: `s${i}`, data: guests ? { attending, guests } : { attending } }),
        rsvp,
      ),
    );
    const report = summaryReport({
      form: rsvp,
      range,
      buckets: counters.map((c) => ({ hour: '2026112010', counters: c })),
      signupDaysBefore: 0,
      now: NOW,
    });
    expect(report.byType).toEqual({ yes: 3, no: 1, maybe: 1, guests: 6 });
    expect(report.fields.attending).toEqual({
      kind: 'choice',
      answered: 6,
      counts: { Yes: 3, No: 1, Maybe: 1, '(other)': 1 },
      former: {},
    });
  });

  it('gives a feedback form out of 10 its NPS, and none without views a conversion rate', () => {
    const report = summaryReport({
      form: {
        id: 'f',
        type: 'feedback',
        fields: [{ id: 'score', type: 'rating', label: 'S', required: true, max: 10 }],
      } as Parameters<typeof summaryReport>[0]['form'],
      range,
      buckets: [
        {
          hour: '2026112006',
          counters: { s: 4, 'a:score': 4, 'r:score:10': 2, 'r:score:7': 1, 'r:score:3': 1 },
        },
      ],
      signupDaysBefore: 0,
      now: NOW,
    });
    expect(report.totals.conversionRate).toBeNull();
    expect(report.byType).toMatchObject({
      ratingField: 'score',
      average: 7.5,
      nps: { promoters: 2, passives: 1, detractors: 1, score: 25 },
      trend: [
        { date: '2026-11-20', average: 7.5 },
        { date: '2026-11-21', average: null },
      ],
    });
  });
});

describe('a choice field whose options changed (docs/forms.md#changing-options)', () => {
  const range = summaryRange({ from: '2026-11-20', to: '2026-11-21', tz: 'UTC' }, NOW);
  type Form = Parameters<typeof summaryReport>[0]['form'];
  const service = (options: string[], formerOptions?: Record<string, string | null>): Form => ({
    id: 'f',
    type: 'custom',
    fields: [
      {
        id: 'service',
        type: 'radio',
        label: 'Service',
        options,
        ...(formerOptions ? { formerOptions } : {}),
      },
    ],
  });
  const before = service(['Deep clean', 'Regular']);
  /** 13 answers of each word, counted as the stream counted them then. */
  const bucket = (form: Form, answer: string, n = 13) => ({
    hour: '2026112010',
    counters: Object.fromEntries(
      Object.entries(countersOf(submission({ data: { service: answer } }), form)).map(([k, v]) => [
        k,
        v * n,
      ]),
    ),
  });
  const report = (form: Form, buckets: ReturnType<typeof bucket>[]) =>
    summaryReport({ form, range, buckets, signupDaysBefore: 0, now: NOW }).fields.service;
  const rowsOf = (field: ReturnType<typeof report>) =>
    field && field.kind === 'choice'
      ? [...Object.values(field.counts), ...Object.values(field.former)].reduce((a, b) => a + b, 0)
      : -1;

  it('renamed without its history (a form saved before it): rows still add up, the old words apart', () => {
    const after = service(['Deep cleaning', 'Regular']);
    const field = report(after, [bucket(before, 'Deep clean'), bucket(after, 'Deep cleaning')]);
    expect(field).toEqual({
      kind: 'choice',
      answered: 26,
      counts: { 'Deep cleaning': 13, Regular: 0 },
      former: { 'Deep clean': 13 },
    });
    expect(rowsOf(field)).toBe(26);
  });

  it('renamed (old words → an option now): the old answers count under the new words, before and after', () => {
    const renamed = service(['Deep cleaning', 'Regular'], { 'Deep clean': 'Deep cleaning' });
    // Answers received before the rename (counted under the old words) and since, one of them
    // in the old words (an old page): all under the new words.
    const field = report(renamed, [
      bucket(before, 'Deep clean'),
      bucket(renamed, 'Deep cleaning', 12),
      bucket(renamed, 'deep CLEAN', 1),
    ]);
    expect(field).toEqual({
      kind: 'choice',
      answered: 26,
      counts: { 'Deep cleaning': 26, Regular: 0 },
      former: {},
    });
  });

  it('a change of an old submission moves what its receipt added, whatever the options now', () => {
    const old = submission({ data: { service: 'Deep clean' } });
    const renamed = service(['Deep cleaning', 'Regular'], { 'Deep clean': 'Deep cleaning' });
    const apart = service(['Deep cleaning', 'Regular'], { 'Deep clean': null });
    for (const form of [renamed, apart]) {
      const moved = difference(countersOf(old, form), countersOf({ ...old, isSpam: true }, form));
      const field = report(form, [
        bucket(before, 'Deep clean', 2),
        { hour: '2026112010', counters: moved },
      ]);
      expect(rowsOf(field)).toBe(1);
      expect(field).toMatchObject({ answered: 1 });
      expect(
        Object.values(field && field.kind === 'choice' ? field.counts : {}).every((n) => n >= 0),
      ).toBe(true);
    }
  });

  it('answers counted when the field was another type are (other): the rows add up to answered', () => {
    const field = report(service(['A', 'B']), [
      { hour: '2026112010', counters: { s: 3, 'a:service': 3, 'o:service:A': 1 } },
    ]);
    expect(field).toEqual({
      kind: 'choice',
      answered: 3,
      counts: { A: 1, B: 0, '(other)': 2 },
      former: {},
    });
  });
});

describe('the conversion rate counts only posts whose views were counted (docs/analytics.md#views)', () => {
  const range = summaryRange({ from: '2026-11-20', to: '2026-11-20', tz: 'UTC' }, NOW);
  const totalsOf = (counters: Record<string, number>) =>
    summaryReport({
      form: { id: 'f', type: 'custom', fields: null },
      range,
      buckets: [{ hour: '2026112010', counters }],
      signupDaysBefore: 0,
      now: NOW,
    }).totals;

  it('a post from a page that counts no views is counted apart, not in the rate', () => {
    const own = countersOf(submission({ meta: { userAgent: 'x', referrer: '', noView: true } }), {
      type: 'custom',
      fields: null,
    });
    expect(own).toMatchObject({ s: 1, nv: 1 });
    expect(totalsOf({ v: 4, s: 3, nv: 1 })).toMatchObject({
      conversionRate: 0.5,
      postsWithoutViews: 1,
      viewsNotCounted: false,
    });
  });

  it('more posts than views: no rate, views not counted (not 366.7 %)', () => {
    expect(totalsOf({ v: 3, s: 11 })).toMatchObject({
      conversionRate: null,
      viewsNotCounted: true,
    });
    expect(totalsOf({ s: 2 })).toMatchObject({ conversionRate: null, viewsNotCounted: false });
  });
});
