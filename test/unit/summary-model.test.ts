import { describe, expect, it } from 'vitest';
import {
  conversionWords,
  DEVICE_WORDS,
  DROP_WORDS,
  deviceRows,
  droppedRows,
  excerpt,
  funnelRows,
  latestTextAnswers,
  linePlot,
} from '#app/summary-model.ts';
import { DEVICES, DROP_REASONS } from '#domain/summary-counters.ts';

describe('the summary chart model: where a trend line is drawn', () => {
  it('draws a range of one day as a dot in the middle, not a line of no length', () => {
    expect(linePlot([3], 5)).toEqual({ lines: [], dots: [{ x: 50, y: expect.any(Number) }] });
    const [dot] = linePlot([5], 5).dots;
    expect(dot!.y).toBeCloseTo(2.5);
  });

  it('draws a day between days without a value as a dot, and runs of days as lines', () => {
    const plot = linePlot([null, 2, null, 1, 2, null, null, 4], 4);
    expect(plot.dots.map((p) => p.x)).toEqual([(1 * 100) / 7, 100]);
    expect(plot.lines).toHaveLength(1);
    expect(plot.lines[0]!.map((p) => p.x)).toEqual([(3 * 100) / 7, (4 * 100) / 7]);
    // 0 sits on the axis, the top value near the top.
    expect(linePlot([0, 4], 4).lines[0]!.map((p) => p.y)).toEqual([100, 2.5]);
  });

  it('draws nothing for days without values, and keeps a value over the top inside', () => {
    expect(linePlot([null, null], 5)).toEqual({ lines: [], dots: [] });
    expect(linePlot([], 5)).toEqual({ lines: [], dots: [] });
    expect(linePlot([9], 0).dots[0]!.y).toBeGreaterThanOrEqual(0);
  });
});

describe('the summary in words', () => {
  it('has a sentence for every reason the summary counts a dropped post under, none its key', () => {
    for (const reason of DROP_REASONS) {
      expect(DROP_WORDS[reason], reason).toMatch(/^[A-Z][a-z’ ]+/);
      // No key on screen: no camelCase word in it.
      expect(DROP_WORDS[reason]).not.toMatch(/[a-z][A-Z]/);
    }
    expect(DROP_WORDS.fillTime).toBe('Sent faster than a person can fill the form');
  });

  it('lists the reasons with drops, most first, in words', () => {
    const dropped = Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<
      (typeof DROP_REASONS)[number],
      number
    >;
    expect(droppedRows({ ...dropped, fillTime: 2, honeypot: 5 })).toEqual([
      ['Filled in the hidden field only robots see', 5],
      ['Sent faster than a person can fill the form', 2],
    ]);
  });

  it('names every device class in words', () => {
    for (const device of DEVICES) expect(DEVICE_WORDS[device]).not.toBe(device);
    expect(deviceRows({ mobile: 3, desktop: 0 })).toEqual([['Phones', 3]]);
  });
});

describe('the latest text answers as quotes', () => {
  it('keeps a short answer whole, its white space folded', () => {
    expect(excerpt('  Great\n\nservice,   thanks ')).toEqual({
      text: 'Great service, thanks',
      cut: false,
    });
  });

  it('cuts a long answer at the last whole word within the bound, with an ellipsis', () => {
    const text = 'The quick brown fox jumps over the lazy dog';
    expect(excerpt(text, 20)).toEqual({ text: 'The quick brown fox…', cut: true });
    expect(excerpt(text, 18)).toEqual({ text: 'The quick brown…', cut: true });
    const long = excerpt('word '.repeat(200));
    expect(long.text.length).toBeLessThanOrEqual(281);
    expect(long.text).toMatch(/ word…$/);
  });

  it('cuts inside a word only when one word is longer than the bound', () => {
    expect(excerpt('a'.repeat(30), 10)).toEqual({ text: `${'a'.repeat(10)}…`, cut: true });
  });

  it('quotes the text and paragraph fields of the newest submissions first, at most the limit', () => {
    const fields = [
      { id: 'email', type: 'email' as const, label: 'Email' },
      { id: 'message', type: 'textarea' as const, label: 'Message' },
      { id: 'rating', type: 'rating' as const },
    ];
    const at = '2026-11-26T10:00:00.000Z';
    const submissions: { id: string; createdAt: string; data: Record<string, string> }[] = [
      { id: 's2', createdAt: at, data: { email: 'a@example.com', message: 'Second', rating: '4' } },
      { id: 's1', createdAt: at, data: { email: 'b@example.com', message: '   ' } },
      { id: 's0', createdAt: at, data: { message: 'First' } },
    ];
    expect(
      latestTextAnswers(fields, submissions).map((a) => [a.submissionId, a.field, a.quote]),
    ).toEqual([
      ['s2', 'Message', 'Second'],
      ['s0', 'Message', 'First'],
    ]);
    expect(latestTextAnswers(fields, submissions, 1)).toHaveLength(1);
  });

  it('quotes long-text answers only (textarea), never a name, an address or another one-line field', () => {
    const fields = [
      { id: 'name', type: 'text' as const, label: 'Your name' },
      { id: 'street', type: 'text' as const, label: 'Street address' },
      { id: 'email', type: 'email' as const, label: 'Email' },
      { id: 'message', type: 'textarea' as const, label: 'Message' },
    ];
    const answers = latestTextAnswers(fields, [
      {
        id: 's',
        createdAt: '2026-11-26T10:00:00.000Z',
        data: {
          name: 'Ada Lovelace',
          street: '12 Baker Street, London',
          email: 'ada@example.com',
          message: 'Please call me back',
        },
      },
    ]);
    expect(answers.map((a) => [a.field, a.quote])).toEqual([['Message', 'Please call me back']]);
  });

  it('on a form with no fields listed, quotes paragraphs only: never hidden answers, addresses, names or short answers', () => {
    const paragraph = 'The workshop ran long but the examples were clear and worth it.';
    const answers = latestTextAnswers(undefined, [
      {
        id: 's',
        createdAt: '2026-11-26T10:00:00.000Z',
        data: {
          email: 'a@example.com',
          your_name: 'Ada Augusta King, Countess of Lovelace and more',
          emailAddress: 'Ada Augusta King at the long address of the house',
          address_line_1: '12 Baker Street, Marylebone, London NW1 6XE, United Kingdom',
          note: 'Hi',
          tell_us_more: paragraph,
          lines: 'One\ntwo',
          _invalid: '[]',
        },
      },
    ]);
    expect(answers.map((a) => [a.field, a.quote])).toEqual([
      ['tell_us_more', paragraph],
      ['lines', 'One two'],
    ]);
  });
});

describe('the conversion in words (docs/analytics.md#views)', () => {
  const totals = { views: 10, conversionRate: 0.4, postsWithoutViews: 0, viewsNotCounted: false };

  it('a rate of counted views, with what it leaves out', () => {
    expect(conversionWords(totals)).toEqual({ value: '40 %', note: undefined });
    expect(conversionWords({ ...totals, postsWithoutViews: 3 }).note).toBe(
      '3 submissions came from pages that count no views (your own forms, the API) and are not in the rate.',
    );
    expect(conversionWords({ ...totals, views: 0, conversionRate: null }).value).toBe('–');
  });

  it('never a rate whose views were not counted: “Views not counted for the pasted form”', () => {
    const words = conversionWords({ ...totals, conversionRate: null, viewsNotCounted: true });
    expect(words.value).toBe('Not counted');
    expect(words.note).toMatch(/^Views not counted for the pasted form: /);
    expect(words.note).not.toMatch(/%/);
  });
});

describe('the funnel’s rows (docs/analytics.md#the-funnel)', () => {
  const pages = [
    { id: 'about', fields: ['a'] },
    { id: 'business', title: ' Your company ', fields: ['b'] },
    { id: 'done', fields: ['c'] },
  ];

  it('names each row, the pages by their title or their number, with its share of the views', () => {
    const rows = funnelRows(
      {
        views: 8,
        started: 6,
        reached: [
          { step: 2, page: 'business', count: 4 },
          { step: 3, page: 'done', count: 3 },
        ],
        sent: 1,
      },
      pages,
    );
    expect(rows.map(({ step, count, width }) => [step, count, width])).toEqual([
      ['Views', 8, 1],
      ['Started', 6, 0.75],
      ['Reached step 2: Your company', 4, 0.5],
      ['Reached step 3', 3, 0.375],
      ['Sent', 1, 0.125],
    ]);
    expect(rows.map((row) => row.share.replace(/\s/g, ' '))).toEqual([
      '100 %',
      '75 %',
      '50 %',
      '37.5 %',
      '12.5 %',
    ]);
  });

  it('gives no share without views, and stops a bar at full width when a row passes the views', () => {
    const none = funnelRows({ views: 0, started: 2, reached: [], sent: 1 }, pages);
    expect(none.map((row) => [row.share, row.width])).toEqual([
      ['–', 0],
      ['–', 0],
      ['–', 0],
    ]);
    const past = funnelRows({ views: 2, started: 1, reached: [], sent: 3 }, null);
    expect(past.at(-1)).toMatchObject({ step: 'Sent', width: 1 });
    expect(past.at(-1)!.share.replace(/\s/g, ' ')).toBe('150 %');
  });
});
