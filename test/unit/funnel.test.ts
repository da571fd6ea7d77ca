import { describe, expect, it } from 'vitest';
import { ServiceError } from '#domain/errors.ts';
import { MAX_PAGES } from '#domain/form-logic-input.ts';
import {
  checkStepOfForm,
  funnelOf,
  isStepCounter,
  LAST_STEP,
  stepCounter,
  stepOf,
} from '#domain/funnel.ts';
import { viewBeaconQuery } from '#domain/funnel-query.ts';
import { summaryRange } from '#domain/summary-range.ts';
import { summaryReport } from '#domain/summary-report.ts';
import { parse } from '#http/parse.ts';

/** The funnel's pure parts (docs/analytics.md#the-funnel): the beacon's query, its counters, the report. */

const NOW = new Date('2026-11-24T22:30:00Z');

/** The issues of a refused query, or 'ok' with what it parsed to. */
function beaconQuery(query: Record<string, string>) {
  try {
    return { ok: parse(viewBeaconQuery, query, 'query string') };
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return { refused: (error as ServiceError).issues };
  }
}

describe('the step beacon’s query', () => {
  it('takes no query (a view), `started`, or a page number from 2 to 10', () => {
    expect(beaconQuery({})).toEqual({ ok: {} });
    expect(beaconQuery({ reached: 'started' })).toEqual({ ok: { reached: 'started' } });
    for (let page = 2; page <= 10; page++) {
      expect(beaconQuery({ reached: String(page) })).toEqual({ ok: { reached: String(page) } });
    }
  });

  it.each([
    '1',
    '0',
    '11',
    '02',
    '2.0',
    ' 2',
    '-3',
    'Started',
    'sent',
    '',
    '1e1',
    'x'.repeat(5000),
  ])('refuses reached=%j at `reached`', (reached) => {
    expect(beaconQuery({ reached })).toEqual({
      refused: [
        {
          path: 'reached',
          code: 'invalid_format',
          message: 'Must be "started" or a page number from 2 to 10',
        },
      ],
    });
  });

  it('refuses anything else a beacon might carry, such as an answer', () => {
    expect(beaconQuery({ reached: 'started', email: 'a@example.com' })).toEqual({
      refused: [{ path: 'email', code: 'unrecognized_keys', message: expect.any(String) }],
    });
  });

  it('names as many pages as a form may have', () => {
    expect(LAST_STEP).toBe(MAX_PAGES);
  });
});

describe('a step against the form’s pages', () => {
  const refusal = (step: 'started' | number, pages: number) => {
    try {
      checkStepOfForm(step, pages);
      return 'counted';
    } catch (error) {
      expect((error as ServiceError).code).toBe('invalid_request');
      return (error as ServiceError).issues;
    }
  };

  it('counts `started` on any form, and the pages the form has', () => {
    expect(refusal('started', 0)).toBe('counted');
    expect(refusal(2, 2)).toBe('counted');
    expect(refusal(3, 3)).toBe('counted');
  });

  it('refuses a page past the form’s last at `reached`, saying which pages there are', () => {
    expect(refusal(4, 3)).toEqual([
      {
        path: 'reached',
        code: 'too_big',
        message: 'Must be "started" or a page of this form, from 2 to 3',
      },
    ]);
    expect(refusal(2, 0)).toEqual([
      {
        path: 'reached',
        code: 'too_big',
        message: 'This form has one page: only "started" is counted',
      },
    ]);
  });
});

describe('the funnel’s counters', () => {
  it('names each step’s counter, apart from every submission counter', () => {
    expect(stepCounter(stepOf('started'))).toBe('st');
    expect(stepCounter(stepOf('7'))).toBe('pg:7');
    expect(isStepCounter('st')).toBe(true);
    expect(isStepCounter('pg:10')).toBe(true);
    // Counters of submissions (stored, spam, unread, answered…) are not the beacons'.
    for (const name of ['s', 'p', 't', 'u', 'v', 'nv', 'a:st', 'o:pg:x', 'dv:mobile', 'cc:ST']) {
      expect(isStepCounter(name), name).toBe(false);
    }
  });
});

describe('the funnel of a range', () => {
  const pages = [
    { id: 'about', fields: ['a'] },
    { id: 'business', fields: ['b'] },
    { id: 'done', fields: ['c'] },
  ];

  it('gives views, started, each page from the second and the stored posts of counted pages', () => {
    expect(
      funnelOf({ v: 20, st: 12, 'pg:2': 9, 'pg:3': 7, s: 6, nv: 2, 'pg:4': 3 }, pages),
    ).toEqual({
      views: 20,
      started: 12,
      reached: [
        { step: 2, page: 'business', count: 9 },
        { step: 3, page: 'done', count: 7 },
      ],
      // 6 stored, 2 of them from a page that counts no views (the API).
      sent: 4,
    });
  });

  it('has no steps for a form without pages, and zeros for a range without beacons', () => {
    expect(funnelOf({}, null)).toEqual({ views: 0, started: 0, reached: [], sent: 0 });
    expect(funnelOf({ v: 3, st: 1, s: 1 }, [])).toEqual({
      views: 3,
      started: 1,
      reached: [],
      sent: 1,
    });
    expect(funnelOf({}, pages).reached.map((step) => step.count)).toEqual([0, 0]);
  });

  it('is summed over the range’s days in its zone, like the views', () => {
    const range = summaryRange({ from: '2026-11-20', to: '2026-11-21', tz: 'Asia/Kolkata' }, NOW);
    const report = summaryReport({
      form: { id: 'f', type: 'custom', fields: null, pages },
      range,
      buckets: [
        // 18:00 UTC is 23:30 on the 20th in Kolkata: in the range.
        { hour: '2026112018', counters: { v: 4, st: 3, 'pg:2': 2, s: 1 } },
        { hour: '2026112019', counters: { v: 1, st: 1, 'pg:2': 1, 'pg:3': 1 } },
        // 18:00 UTC on the 19th is the 19th there: before the range.
        { hour: '2026111918', counters: { v: 50, st: 50, 'pg:2': 50 } },
      ],
      signupDaysBefore: 0,
      now: NOW,
    });
    expect(report.funnel).toEqual({
      views: 5,
      started: 4,
      reached: [
        { step: 2, page: 'business', count: 3 },
        { step: 3, page: 'done', count: 1 },
      ],
      sent: 1,
    });
    expect(report.totals.views).toBe(report.funnel.views);
  });
});
