import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { admin } from '#test/support/admin.ts';
import { api, stack } from '#test/support/api.ts';
import { meterDynamoDb } from '#test/support/dynamodb-meter.ts';
import { newForm, storedItems, type TestForm } from '#test/support/forms.ts';
import { bulk } from '#test/support/inbox.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { type Rng, random } from '#test/support/seeded-random.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import { throttle } from '#test/support/throttle.ts';

/**
 * The summary against a recount from first principles: for a form of each
 * type, a seeded random history (submissions received over six days, spam,
 * tests, accepted and dropped posts, views and bot views, reads, stars,
 * spam moves both ways, deletes) goes through the real stack (the table
 * stream's rollup worker included); then the summary of several ranges in
 * several zones must equal what this file counts from the submissions'
 * final states, written without the service's counter code.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONES = ['UTC', 'America/Los_Angeles', 'Asia/Tokyo', 'Asia/Kolkata'];
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

type Item = Record<string, unknown> & {
  id: string;
  createdAt: string;
  data: Record<string, string>;
  meta: { deviceClass?: string; country?: string; referrer: string; noView?: boolean };
  isSpam?: boolean;
  isTest?: boolean;
  read?: boolean;
  firstReadAt?: string;
};
interface Field {
  id: string;
  type: string;
  required?: boolean;
  options?: string[];
  min?: number;
  max?: number;
}

const dateIn = (ms: number, tz: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(ms);
/** The documented rule: a submission counts on the date, in the zone, at which its UTC hour starts. */
const dayOf = (iso: string, tz: string) => dateIn(Math.floor(Date.parse(iso) / HOUR) * HOUR, tz);
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const round2 = (n: number) => Math.round(n * 100) / 100;
const topOf = (counts: Map<string, number>, key: string) =>
  [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, 10)
    .map(([name, count]) => ({ [key]: name, count }));

interface History {
  form: TestForm;
  type: string;
  fields: Field[];
  /** Every submission as it was just before the deletes, and which were deleted. */
  items: Item[];
  deleted: Set<string>;
  /** Each counted view and dropped post: its reason and instant. */
  views: number[];
  /** Each counted `started` beacon's instant (the forms have no pages: no other step). */
  started: number[];
  dropped: { reason: string; at: number }[];
  /** Per waitlist address, the first stored signup's id. */
  firstSignups: Set<string>;
}

/** What the summary must say, counted from the history alone. */
function recount(history: History, from: string, to: string, tz: string) {
  const dates: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) dates.push(d);
  const inRange = (iso: string) => {
    const day = dayOf(iso, tz);
    return day >= from && day <= to ? day : undefined;
  };
  const days = new Map(dates.map((d) => [d, { views: 0, stored: 0, spam: 0, dropped: 0 }]));
  const totals = { views: 0, stored: 0, spam: 0, dropped: 0, tests: 0 };
  const dropped: Record<string, number> = Object.fromEntries(
    [
      'honeypot',
      'fillTime',
      'blockedIp',
      'blockedCountry',
      'rateLimited',
      'closed',
      'overLimit',
      'captcha',
      'spamCap',
    ].map((r) => [r, 0]),
  );
  for (const at of history.views) {
    const day = inRange(new Date(at).toISOString());
    if (day) {
      totals.views++;
      days.get(day)!.views++;
    }
  }
  for (const drop of history.dropped) {
    const day = inRange(new Date(drop.at).toISOString());
    if (day) {
      totals.dropped++;
      days.get(day)!.dropped++;
      dropped[drop.reason]!++;
    }
  }
  const stored: Item[] = [];
  let withoutViews = 0;
  for (const item of history.items) {
    const day = inRange(item.createdAt);
    if (!day) continue;
    // Spam first: a test moved to spam counts as spam.
    if (item.isSpam) {
      totals.spam++;
      days.get(day)!.spam++;
    } else if (item.isTest) totals.tests++;
    else {
      totals.stored++;
      days.get(day)!.stored++;
      stored.push(item);
      // Posted without `_views` (the API, as these posts are): counted apart from the rate.
      if (item.meta.noView) withoutViews++;
    }
  }
  const devices: Record<string, number> = {
    mobile: 0,
    desktop: 0,
    tablet: 0,
    bot: 0,
    unknown: 0,
  };
  const countries = new Map<string, number>();
  const referrers = new Map<string, number>();
  for (const item of stored) {
    devices[item.meta.deviceClass ?? 'unknown']!++;
    if (item.meta.country)
      countries.set(item.meta.country, (countries.get(item.meta.country) ?? 0) + 1);
    if (item.meta.referrer) {
      const host = new URL(item.meta.referrer).hostname;
      referrers.set(host, (referrers.get(host) ?? 0) + 1);
    }
  }
  const answers = (field: Field, among = stored) =>
    among.map((i) => i.data[field.id]).filter((v): v is string => !!v && v.trim() !== '');
  const ratingOf = (field: Field, among = stored) => {
    const [min, max] = [field.min ?? 1, field.max ?? 5];
    const counts: Record<string, number> = {};
    for (let n = min; n <= max; n++) counts[String(n)] = 0;
    let sum = 0;
    let rated = 0;
    for (const value of answers(field, among)) {
      const stars = Number(value);
      if (Number.isInteger(stars) && stars >= min && stars <= max) {
        counts[String(stars)]!++;
        sum += stars;
        rated++;
      }
    }
    return { min, max, counts, average: rated ? round2(sum / rated) : null };
  };
  const fieldSummary = (field: Field) => {
    const given = answers(field);
    switch (field.type) {
      case 'radio':
      case 'select': {
        const counts: Record<string, number> = Object.fromEntries(
          (field.options ?? []).map((o) => [o, 0]),
        );
        // The documented matching: an option in any case, with spaces around.
        const fold = (text: string) => text.trim().toLowerCase();
        for (const value of given) {
          const option = field.options?.includes(value)
            ? value
            : (field.options?.find((o) => fold(o) === fold(value)) ?? '(other)');
          counts[option] = (counts[option] ?? 0) + 1;
        }
        // These histories never change a field's options: nothing under former words.
        return { kind: 'choice', answered: given.length, counts, former: {} };
      }
      case 'checkbox':
        return { kind: 'checkbox', answered: given.length, checked: given.length };
      case 'rating': {
        const { min, max, counts, average } = ratingOf(field);
        return { kind: 'rating', answered: given.length, min, max, average, counts };
      }
      case 'number': {
        const numbers = given.map(Number).filter(Number.isFinite);
        return {
          kind: 'number',
          answered: given.length,
          min: numbers.length ? Math.min(...numbers) : null,
          max: numbers.length ? Math.max(...numbers) : null,
          average: numbers.length
            ? round2(numbers.reduce((a, b) => a + b, 0) / numbers.length)
            : null,
        };
      }
      default:
        return { kind: 'text', answered: given.length };
    }
  };
  const byType = (): Record<string, unknown> => {
    switch (history.type) {
      case 'contact': {
        const minutes = stored
          .filter((i) => i.firstReadAt)
          .map((i) => Math.floor((Date.parse(i.firstReadAt!) - Date.parse(i.createdAt)) / 60_000))
          .sort((a, b) => a - b);
        const mid = minutes.length >> 1;
        return {
          unread: stored.filter((i) => !i.read && !history.deleted.has(i.id)).length,
          medianMinutesToFirstRead: minutes.length
            ? minutes.length % 2
              ? minutes[mid]
              : (minutes[mid - 1]! + minutes[mid]!) / 2
            : null,
        };
      }
      case 'waitlist': {
        const everStored = history.items.filter((i) => !i.isSpam && !i.isTest);
        return {
          signups: stored.length,
          uniqueEmails: history.items.filter(
            (i) => history.firstSignups.has(i.id) && inRange(i.createdAt),
          ).length,
          cumulative: dates.map((date) => ({
            date,
            total: everStored.filter((i) => dayOf(i.createdAt, tz) <= date).length,
          })),
        };
      }
      case 'feedback': {
        const rating = history.fields.find((f) => f.type === 'rating')!;
        const { counts, average } = ratingOf(rating);
        const count = (low: number, high: number) =>
          Object.entries(counts)
            .filter(([stars]) => +stars >= low && +stars <= high)
            .reduce((n, [, c]) => n + c, 0);
        const [promoters, passives, detractors] = [count(9, 10), count(7, 8), count(0, 6)];
        const all = promoters + passives + detractors;
        return {
          ratingField: rating.id,
          average,
          distribution: counts,
          trend: dates.map((date) => ({
            date,
            average: ratingOf(
              rating,
              stored.filter((i) => dayOf(i.createdAt, tz) === date),
            ).average,
          })),
          nps:
            rating.max === 10
              ? {
                  promoters,
                  passives,
                  detractors,
                  score: all ? Math.round((100 * (promoters - detractors)) / all) : 0,
                }
              : null,
        };
      }
      case 'rsvp': {
        const said = (word: string) =>
          stored.filter((i) => (i.data.attending ?? '').trim().toLowerCase() === word);
        return {
          yes: said('yes').length,
          no: said('no').length,
          maybe: said('maybe').length,
          guests: said('yes').reduce((n, i) => n + (Number(i.data.guests) || 0), 0),
        };
      }
      default:
        return {};
    }
  };
  return {
    formId: history.form.id,
    type: history.type,
    from,
    to,
    tz,
    totals: {
      ...totals,
      // The documented rule (docs/analytics.md#views): posts of pages that counted their views,
      // over those views; none over 1, where views were not counted.
      ...(() => {
        const rate = totals.views ? (totals.stored - withoutViews) / totals.views : null;
        return {
          conversionRate: rate !== null && rate <= 1 ? Math.round(rate * 10_000) / 10_000 : null,
          postsWithoutViews: withoutViews,
          viewsNotCounted: rate !== null && rate > 1,
        };
      })(),
    },
    days: dates.map((date) => ({ date, ...days.get(date)! })),
    dropped,
    // These histories ask for no confirmation by email: none expired unconfirmed.
    notConfirmed: 0,
    devices,
    countries: topOf(countries, 'code'),
    referrers: topOf(referrers, 'host'),
    fields: Object.fromEntries(history.fields.map((f) => [f.id, fieldSummary(f)])),
    byType: byType(),
    funnel: {
      views: totals.views,
      started: history.started.filter((at) => inRange(new Date(at).toISOString())).length,
      reached: [],
      sent: totals.stored - withoutViews,
    },
  };
}

/** Answers for a form's fields, some left empty, some off the options. */
function answersFor(type: string, fields: Field[], rng: Rng, email: string) {
  const data: Record<string, string> = {};
  for (const field of fields) {
    if (!field.required && rng.next() < 0.15) continue;
    switch (field.type) {
      case 'email':
        data[field.id] = email;
        break;
      case 'radio':
      case 'select':
        data[field.id] =
          rng.next() < 0.1 && type === 'custom' ? 'something else' : rng.pick(field.options!);
        // People type their answer to an rsvp: "YES", " no ".
        if (type === 'rsvp' && rng.next() < 0.3) {
          data[field.id] = rng.pick([
            ` ${data[field.id]!.toLowerCase()} `,
            data[field.id]!.toUpperCase(),
          ]);
        }
        break;
      case 'rating':
        data[field.id] = String(
          (field.min ?? 1) + rng.int((field.max ?? 5) - (field.min ?? 1) + 1),
        );
        break;
      case 'number':
        data[field.id] = String(
          rng.int(field.id === 'guests' ? 5 : 1000) - (type === 'custom' ? 50 : 0),
        );
        break;
      case 'checkbox':
        data[field.id] = 'on';
        break;
      default:
        data[field.id] = rng.pick(['Ada', 'Grace', 'a longer message']);
    }
  }
  if (type === 'custom' && Object.keys(data).length === 0) data.note = 'hello';
  return data;
}

const CUSTOM_FIELDS: Field[] = [
  { id: 'plan', type: 'select', options: ['basic', 'team', 'enterprise'] },
  { id: 'size', type: 'number' },
  { id: 'terms', type: 'checkbox' },
  { id: 'note', type: 'text' },
];

async function makeHistory(type: string, seed: number): Promise<History> {
  const rng = random(seed);
  const create: Record<string, unknown> = { name: `Summary ${type}`, type };
  const form = await newForm('pro', { notifyEnabled: false }, create);
  let fields = ((await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey })).body.fields ??
    []) as Field[];
  const patch = async (body: Record<string, unknown>) => {
    const patched = await api('PATCH', `/v1/forms/${form.id}`, { key: form.apiKey, body });
    expect(patched.status, patched.text).toBe(200);
    return patched.body;
  };
  if (type === 'feedback') {
    // 0 to 10, so the NPS block is there and a 0 is counted (a detractor).
    fields = fields.map((f) => (f.type === 'rating' ? { ...f, min: 0, max: 10 } : f));
    fields = (await patch({ fields })).fields as Field[];
  }
  if (type === 'custom') {
    fields = (
      await patch({
        fields: CUSTOM_FIELDS.map((f) => ({ ...f, label: f.id, required: false })),
      })
    ).fields as Field[];
  }
  const now = Date.now();
  const emails = ['ada@example.com', 'grace@example.com', 'alan@example.com', 'edsger@example.com'];
  // Six days of history, oldest first; for a waitlist each address once (its first signup).
  const seeded = 30 + rng.int(10);
  const times = Array.from({ length: seeded }, () => now - 60_000 - rng.int(6 * DAY)).sort();
  const flagsOf = (i: number) =>
    i % 7 === 3 ? { isSpam: true } : i % 11 === 5 ? { isTest: true } : {};
  const metas = times.map(() => ({
    userAgent: BROWSER,
    referrer: rng.pick([
      '',
      'https://Example.com/pricing',
      'https://blog.example.org/a?b',
      'https://news.example.net/',
    ]),
    country: rng.pick([undefined, 'FR', 'DE', 'US', 'JP']),
    deviceClass: rng.pick(['mobile', 'desktop', 'tablet', undefined] as const),
  }));
  const groups = [{}, { isSpam: true }, { isTest: true }] as const;
  for (const flags of groups) {
    const indexes = times
      .map((_, i) => i)
      .filter((i) => JSON.stringify(flagsOf(i)) === JSON.stringify(flags));
    await seedSubmissions({
      formId: form.id,
      teamId: form.teamId,
      count: indexes.length,
      flags,
      parallel: 1,
      receivedAt: (i) => new Date(times[indexes[i]!]!),
      data: (i) => answersFor(type, fields, rng, `seed${indexes[i]}@example.com`),
      meta: (i) => metas[indexes[i]!]!,
      waitlist: type === 'waitlist',
    });
  }
  // Posts now: accepted (a waitlist's repeat an address), dropped by three steps, views.
  const dropped: { reason: string; at: number }[] = [];
  for (let i = 0; i < 4; i++) {
    const posted = await submit(form.key, {
      json: answersFor(type, fields, rng, emails[i % 3]!),
      from: freshVisitor(),
      headers: { 'user-agent': BROWSER, referer: 'https://www.example.com/contact' },
    });
    expect(posted.status, posted.text).toBe(200);
  }
  const honeypot = await submit(form.key, {
    json: { ...answersFor(type, fields, rng, emails[0]!), _gotcha: 'bot' },
    from: freshVisitor(),
  });
  expect(honeypot.body).toEqual({ ok: true });
  dropped.push({ reason: 'honeypot', at: Date.now() });
  const visitor = freshVisitor();
  await patch({ blockedIps: [visitor] });
  const blocked = await submit(form.key, { json: { note: 'x' }, from: visitor });
  expect(blocked.body).toEqual({ ok: true });
  dropped.push({ reason: 'blockedIp', at: Date.now() });
  await patch({ blockedIps: [], status: 'paused' });
  const closed = await submit(form.key, {
    json: answersFor(type, fields, rng, emails[0]!),
    from: freshVisitor(),
  });
  expect(closed.status, closed.text).toBe(423);
  dropped.push({ reason: 'closed', at: Date.now() });
  await patch({ status: 'active' });
  const views: number[] = [];
  // The funnel's first step (docs/analytics.md#the-funnel): three page loads answer something.
  const started: number[] = [];
  for (const [agent, answers] of [
    [BROWSER, true],
    [BROWSER, false],
    [BOT, true],
    [BROWSER, true],
  ] as const) {
    const from = freshVisitor();
    const view = await submit(form.key, {
      path: `/f/${form.key}/views`,
      headers: { 'user-agent': agent },
      from,
    });
    expect(view.status).toBe(204);
    if (agent === BROWSER) views.push(Date.now());
    if (!answers) continue;
    const step = await submit(form.key, {
      path: `/f/${form.key}/views?reached=started`,
      headers: { 'user-agent': agent },
      from,
    });
    expect(step.status).toBe(204);
    if (agent === BROWSER) started.push(Date.now());
  }

  // Changes: reads (some twice, some undone), stars, spam moves both ways, deletes.
  const all = (await storedItems(form.id)) as Item[];
  const insertedAs = new Map(all.map((i) => [i.id, !i.isSpam && !i.isTest]));
  const pick = (share: number) => all.filter(() => rng.next() < share).map((i) => i.id);
  const change = async (ids: string[], body: Record<string, unknown>) => {
    if (ids.length === 0) return;
    const changed = await bulk(form, 'PATCH', { target: { ids }, ...body });
    expect(changed.status, changed.text).toBe(200);
  };
  await change(pick(0.5), { read: true });
  await change(pick(0.2), { read: false });
  await change(pick(0.3), { starred: true });
  await change(pick(0.15), { isSpam: true });
  await change(pick(0.15), { isSpam: false });
  await change(pick(0.2), { read: true });
  const items = (await storedItems(form.id)) as Item[];
  const deleted = new Set(pick(0.2));
  if (deleted.size) {
    const gone = await bulk(form, 'DELETE', { target: { ids: [...deleted] } });
    expect(gone.status, gone.text).toBe(200);
  }
  // A waitlist address counts once, at its first signup: the first submission with it that
  // was stored as neither spam nor test (seeded addresses are unique and come first; the
  // posts repeat one). Moving it to spam later does not change that.
  const firstSignups = new Set<string>();
  if (type === 'waitlist') {
    const seen = new Set<string>();
    const inOrder = [...items].sort((a, b) => (a.id < b.id ? -1 : 1));
    for (const item of inOrder) {
      // Spam and tests never count as signups, even when moved out of spam later.
      const insertedAsSignup = insertedAs.get(item.id) === true;
      const email = item.data.email?.toLowerCase();
      if (!email || seen.has(email) || !insertedAsSignup) continue;
      seen.add(email);
      firstSignups.add(item.id);
    }
  }
  return { form, type, fields, items, deleted, views, started, dropped, firstSignups };
}

describe('the form summary', () => {
  const histories = new Map<string, History>();

  beforeAll(async () => {
    await localStore();
    const types = ['contact', 'waitlist', 'feedback', 'rsvp', 'custom'];
    const made = await Promise.all(types.map((type, i) => makeHistory(type, 2600 + i)));
    for (const history of made) histories.set(history.type, history);
  }, 120_000);

  it.each(['contact', 'waitlist', 'feedback', 'rsvp', 'custom'])(
    'of a %s form equals a recount from its submissions, in every zone and range, once the stream has caught up',
    async (type) => {
      const history = histories.get(type)!;
      for (const tz of ZONES) {
        const today = dateIn(Date.now(), tz);
        for (const [from, to] of [
          [addDays(today, -7), today],
          [addDays(today, -4), addDays(today, -2)],
        ] as const) {
          const query = `from=${from}&to=${to}&tz=${encodeURIComponent(tz)}`;
          const read = async () => {
            const answer = await api('GET', `/v1/forms/${history.form.id}/summary?${query}`, {
              key: history.form.apiKey,
            });
            expect(answer.status, answer.text).toBe(200);
            const { asOf, ...rest } = answer.body;
            expect(Date.parse(asOf as string)).toBeGreaterThan(Date.now() - 60_000);
            return rest;
          };
          await expect
            .poll(read, { timeout: 20_000, interval: 250 })
            .toEqual(recount(history, from, to, tz));
        }
      }
    },
    120_000,
  );

  it('takes a stream record the stream delivers again once: a replayed insert moves nothing', async () => {
    const history = histories.get('contact')!;
    const today = dateIn(Date.now(), 'UTC');
    const summaryNow = async () => {
      const answer = await api(
        'GET',
        `/v1/forms/${history.form.id}/summary?from=${addDays(today, -7)}&to=${today}`,
        { key: history.form.apiKey },
      );
      const { asOf: _, ...rest } = answer.body;
      return rest;
    };
    await expect
      .poll(summaryNow, { timeout: 20_000 })
      .toEqual(recount(history, addDays(today, -7), today, 'UTC'));
    const before = await summaryNow();
    const item = history.items.find((i) => !i.isSpam && !i.isTest && !history.deleted.has(i.id))!;
    const { handler } = await import('#events/summary-rollup.ts');
    const event = {
      Records: [
        {
          eventID: 'replayed',
          eventName: 'INSERT',
          eventSource: 'aws:dynamodb',
          // Lower than any the local stream has given: a record already taken.
          dynamodb: {
            SequenceNumber: '1',
            Keys: marshall({ pk: item.pk, sk: item.sk }),
            NewImage: marshall(item, { removeUndefinedValues: true }),
          },
        },
      ],
    } as unknown as DynamoDBStreamEvent;
    const invoke = handler as unknown as (event: DynamoDBStreamEvent) => Promise<unknown>;
    expect(await invoke(event)).toEqual({ batchItemFailures: [] });
    expect(await summaryNow()).toEqual(before);
  });

  it('adds a batch’s records of one hour in one write; a batch delivered again with later records of that hour counts each record once', async () => {
    const form = await newForm('pro', { notifyEnabled: false });
    for (let i = 0; i < 5; i++) {
      const posted = await submit(form.key, { json: { message: `m${i}` }, from: freshVisitor() });
      expect(posted.status, posted.text).toBe(200);
    }
    const stored = await storedItems(form.id);
    expect(stored).toHaveLength(5);
    // The five as INSERTs of an hour three days ago, which no post of this form reaches, with
    // sequence numbers of their own: the bucket is this test's alone.
    const day = dateIn(Date.now() - 3 * DAY, 'UTC');
    const records = stored.map((item, i) => ({
      eventID: `batch-${i}`,
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      dynamodb: {
        SequenceNumber: `90000000000000000000${i}`,
        Keys: marshall({ pk: item.pk, sk: item.sk }),
        NewImage: marshall(
          { ...item, createdAt: `${day}T10:0${i}:00.000Z` },
          { removeUndefinedValues: true },
        ),
      },
    }));
    const { handler } = await import('#events/summary-rollup.ts');
    const invoke = handler as unknown as (event: DynamoDBStreamEvent) => Promise<unknown>;
    await localStore();
    const { dynamodb } = await import('#store/client.ts');
    const { meter, reset } = meterDynamoDb(dynamodb);
    const storedThatDay = async () => {
      const answer = await api('GET', `/v1/forms/${form.id}/summary?from=${day}&to=${day}`, {
        key: form.apiKey,
      });
      expect(answer.status, answer.text).toBe(200);
      return (answer.body.totals as { stored: number }).stored;
    };

    // Three records of one hour: one UpdateItem.
    const batch = (from: number, to: number) => ({ Records: records.slice(from, to) }) as never;
    reset();
    expect(await invoke(batch(0, 3))).toEqual({ batchItemFailures: [] });
    const writes = meter.calls.filter((call) => /Put|Update|Delete|Write|Transact/.test(call));
    expect(writes).toEqual(['UpdateItemCommand']);
    expect(await storedThatDay()).toBe(3);
    // Delivered again from the second record (a failure further on), with two more: the bucket
    // has taken the second and third, so the run goes record by record and adds the last two.
    expect(await invoke(batch(1, 5))).toEqual({ batchItemFailures: [] });
    expect(await storedThatDay()).toBe(5);
    // The whole batch once more: nothing moves.
    expect(await invoke(batch(0, 5))).toEqual({ batchItemFailures: [] });
    expect(await storedThatDay()).toBe(5);
  });

  it('a waitlist batch of a signup, its removal and the same address again, retried after a failed write (a ProvisionedThroughputExceededException injected by client middleware: DynamoDB Local never sends it), counts both signups as first', async () => {
    const form = await newForm('pro', { notifyEnabled: false }, { name: 'List', type: 'waitlist' });
    for (let i = 0; i < 2; i++) {
      const posted = await submit(form.key, {
        json: { email: 'again@example.com' },
        from: freshVisitor(),
      });
      expect(posted.status, posted.text).toBe(200);
    }
    const [first, second] = (
      (await storedItems(form.id)) as { sk: string; signupHash?: string }[]
    ).toSorted((a, b) => a.sk.localeCompare(b.sk));
    expect(second?.signupHash).toBeDefined();
    // In an hour two days ago of this form, with sequence numbers of their own.
    const day = dateIn(Date.now() - 2 * DAY, 'UTC');
    const image = (item: Record<string, unknown>) =>
      marshall({ ...item, createdAt: `${day}T09:00:00.000Z` }, { removeUndefinedValues: true });
    const record = (i: number, eventName: string, item: Record<string, unknown>) => ({
      eventID: `signup-${i}`,
      eventName,
      eventSource: 'aws:dynamodb',
      dynamodb: {
        SequenceNumber: `91000000000000000000${i}`,
        Keys: marshall({ pk: item.pk, sk: item.sk }),
        ...(eventName === 'REMOVE' ? { OldImage: image(item) } : { NewImage: image(item) }),
      },
    });
    const event = {
      Records: [
        record(1, 'INSERT', first!),
        record(2, 'REMOVE', first!),
        record(3, 'INSERT', second!),
      ],
    } as unknown as DynamoDBStreamEvent;
    await localStore();
    const { dynamodb } = await import('#store/client.ts');
    const { handler } = await import('#events/summary-rollup.ts');
    const invoke = handler as unknown as (event: DynamoDBStreamEvent) => Promise<unknown>;
    let throttled = 0;
    const unthrottle = throttle(
      dynamodb,
      ({ command, pk, sk }) =>
        command === 'UpdateItemCommand' &&
        pk === `FORM#${form.id}` &&
        sk?.startsWith('STAT#H') === true &&
        throttled++ === 0,
    );
    try {
      // The first write of the hour fails: the whole batch fails and comes again.
      await expect(invoke(event)).rejects.toThrow();
      expect(await invoke(event)).toEqual({ batchItemFailures: [] });
    } finally {
      unthrottle();
    }
    const answer = await api('GET', `/v1/forms/${form.id}/summary?from=${day}&to=${day}`, {
      key: form.apiKey,
    });
    expect(answer.status, answer.text).toBe(200);
    // The first signup was first when made; removed, its address signs up as new again.
    expect(answer.body.byType).toMatchObject({ signups: 2, uniqueEmails: 2 });
  });

  it('answers 400 naming the field for a bad date, zone or range, and 404 for a form of another team', async () => {
    const { form } = histories.get('custom')!;
    const cases: [string, string][] = [
      ['from=2026-1-5', 'from'],
      ['to=2026-02-30', 'to'],
      ['from=yesterday', 'from'],
      ['tz=Mars%2FOlympus', 'tz'],
      ['tz=', 'tz'],
      ['from=2026-03-02&to=2026-03-01', 'from'],
      ['from=2024-01-01&to=2025-01-01', 'to'],
      ['days=7', 'days'],
    ];
    for (const [query, field] of cases) {
      const answer = await api('GET', `/v1/forms/${form.id}/summary?${query}`, {
        key: form.apiKey,
      });
      expect(answer.status, query).toBe(400);
      expect(answer.body, query).toMatchObject({ ok: false, error: 'invalid_request' });
      const issues = (answer.body as unknown as { issues: { path: string }[] }).issues;
      expect(issues.map((issue) => issue.path).join(), query).toContain(field);
    }
    // 366 days is the most a range may hold.
    const year = await api('GET', `/v1/forms/${form.id}/summary?from=2024-01-01&to=2024-12-31`, {
      key: form.apiKey,
    });
    expect(year.status).toBe(200);
    expect((year.body.days as unknown[]).length).toBe(366);
    const other = await newForm('pro');
    const foreign = await api('GET', `/v1/forms/${form.id}/summary`, { key: other.apiKey });
    expect(foreign.status).toBe(404);
  });

  it('counts an rsvp’s YES and " yes " as yes, in its block and under its field’s option', async () => {
    const form = await newForm('pro', { notifyEnabled: false }, { name: 'Party', type: 'rsvp' });
    for (const [attending, guests] of [
      ['YES', '2'],
      [' yes ', '1'],
      ['Yes', '0'],
      ['no', '0'],
      ['Perhaps', '3'],
    ]) {
      const posted = await submit(form.key, {
        json: { name: 'Ada', email: 'ada@example.com', attending, guests },
        from: freshVisitor(),
      });
      expect(posted.status, posted.text).toBe(200);
    }
    const read = async () => {
      const answer = await api('GET', `/v1/forms/${form.id}/summary`, { key: form.apiKey });
      expect(answer.status, answer.text).toBe(200);
      const fields = answer.body.fields as Record<string, { counts?: Record<string, number> }>;
      return { byType: answer.body.byType, attending: fields.attending?.counts };
    };
    await expect.poll(read, { timeout: 20_000, interval: 250 }).toEqual({
      byType: { yes: 3, no: 1, maybe: 0, guests: 3 },
      attending: { Yes: 3, No: 1, Maybe: 0, '(other)': 1 },
    });
  });

  it('answers a date past the documented range (to=9999-12-31) with 400 naming to, promptly, and the stack keeps answering', async () => {
    const { form } = histories.get('custom')!;
    const started = Date.now();
    // Given up after 5 s: before the bound, the day loop never ended and took the stack with it.
    const far = await fetch(`${stack().baseUrl}/v1/forms/${form.id}/summary?to=9999-12-31`, {
      headers: { authorization: `Bearer ${form.apiKey}` },
      signal: AbortSignal.timeout(5_000),
    });
    const body = (await far.json()) as Record<string, unknown>;
    expect(far.status, JSON.stringify(body)).toBe(400);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(body).toMatchObject({ ok: false, error: 'invalid_request' });
    expect(body.issues).toEqual([
      expect.objectContaining({ path: 'to', message: 'Must be between 2000-01-01 and 2100-12-31' }),
    ]);
    const next = await api('GET', `/v1/forms/${form.id}/summary`, { key: form.apiKey });
    expect(next.status).toBe(200);
  });

  it.each([
    ['from=2026-13-01', 'from'],
    ['to=2026-01-32', 'to'],
    ['to=2026-02-30', 'to'],
    ['from=2026-04-31', 'from'],
    ['from=1999-12-31&to=2000-01-02', 'from'],
    ['from=2100-12-31&to=2101-01-01', 'to'],
  ])('answers %s with 400 invalid_request naming %s, never a 500', async (query, field) => {
    const { form } = histories.get('custom')!;
    const answer = await api('GET', `/v1/forms/${form.id}/summary?${query}`, {
      key: form.apiKey,
    });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body).toMatchObject({ ok: false, error: 'invalid_request' });
    const issues = answer.body.issues as { path: string }[];
    expect(issues.map((issue) => issue.path)).toEqual([field]);
  });

  it('answers 404 for another team’s form whatever its query: the query is checked after the form is found', async () => {
    const { form } = histories.get('custom')!;
    const other = await newForm('pro');
    for (const query of ['to=9999-12-31', 'from=2026-13-01', 'tz=Mars%2FOlympus', 'days=7', '']) {
      const foreign = await api('GET', `/v1/forms/${form.id}/summary?${query}`, {
        key: other.apiKey,
      });
      expect(foreign.status, query).toBe(404);
      expect(foreign.body, query).toMatchObject({ ok: false, error: 'not_found' });
    }
  });

  it.each(['waitlist', 'custom'])(
    'npm run admin -- summary rebuild recounts a %s form from its submissions, keeping its views, dropped posts and funnel steps',
    async (type) => {
      const history = histories.get(type)!;
      const today = dateIn(Date.now(), 'UTC');
      const from = addDays(today, -7);
      const read = async () => {
        const answer = await api('GET', `/v1/forms/${history.form.id}/summary?from=${from}`, {
          key: history.form.apiKey,
        });
        const { asOf: _, ...rest } = answer.body;
        return rest;
      };
      await expect.poll(read, { timeout: 20_000 }).toEqual(recount(history, from, today, 'UTC'));
      // Spoil the rollups: a bucket that counts a thousand too many.
      const { documents } = await localStore();
      const { config } = await import('#config');
      const hour = new Date().toISOString().slice(0, 13).replace(/[-T]/g, '');
      await documents.send(
        new UpdateCommand({
          TableName: config.tableName,
          Key: { pk: `FORM#${history.form.id}`, sk: `STAT#H${hour}` },
          UpdateExpression: 'ADD #s :n',
          ExpressionAttributeNames: { '#s': 's' },
          ExpressionAttributeValues: { ':n': 1000 },
        }),
      );
      expect(((await read()).totals as { stored: number }).stored).toBeGreaterThan(1000);
      const rebuilt = await admin('summary', 'rebuild', '--form', history.form.id);
      expect(rebuilt.code, rebuilt.stderr).toBe(0);
      const remaining = history.items.filter((i) => !history.deleted.has(i.id));
      expect(JSON.parse(rebuilt.stdout)).toMatchObject({
        formId: history.form.id,
        submissions: remaining.length,
      });
      // What a rebuild cannot know: deleted submissions, and a first signup since moved to spam.
      const firstSignups = new Set<string>();
      const seen = new Set<string>();
      for (const item of [...remaining].sort((a, b) => (a.id < b.id ? -1 : 1))) {
        const email = item.data.email?.toLowerCase();
        if (!email || item.isSpam || item.isTest || seen.has(email)) continue;
        seen.add(email);
        firstSignups.add(item.id);
      }
      const recounted = { ...history, items: remaining, deleted: new Set<string>(), firstSignups };
      expect(await read()).toEqual(recount(recounted, from, today, 'UTC'));
    },
    60_000,
  );
});
