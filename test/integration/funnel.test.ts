import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { visitorIdentity } from '#domain/same-visitor.ts';
import { rateWindowKey } from '#store/keys.ts';
import { stepVisitorScope } from '#store/rate-limits.ts';
import { api, stack } from '#test/support/api.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { eventually } from '#test/support/poll.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

/**
 * The funnel through the local stack (docs/analytics.md#the-funnel): step
 * beacons posted as the hosted page's script posts them (`sendBeacon`, no
 * body), counted by the view rules with a budget of their own, refused at
 * `reached` when they name no page of the form, and read back through the
 * summary's `funnel` over a day range in a time zone.
 */

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const ZONE = 'Asia/Tokyo';

const FIELDS = [
  { id: 'kind', type: 'radio', label: 'Who for', options: ['Personal', 'Business'] },
  { id: 'company', type: 'text', label: 'Company' },
  { id: 'message', type: 'textarea', label: 'Message' },
];
const PAGES = [
  { id: 'about', fields: ['kind'] },
  { id: 'business', title: 'Your company', fields: ['company'] },
  { id: 'done', fields: ['message'] },
];

interface Funnel {
  views: number;
  started: number;
  reached: { step: number; page: string; count: number }[];
  sent: number;
}

/** Today in the zone the summary is asked in. */
const todayIn = (tz: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: tz, dateStyle: 'short' }).format(new Date());

/**
 * The form's summary over yesterday and today in the zone: the form is new, so the range holds
 * all of it, even when the zone's midnight passes between the beacons and the read.
 */
async function summaryOf(form: TestForm) {
  const today = todayIn(ZONE);
  const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000)
    .toISOString()
    .slice(0, 10);
  const summary = await api<{ funnel: Funnel; totals: { views: number; stored: number } }>(
    'GET',
    `/v1/forms/${form.id}/summary?from=${yesterday}&to=${today}&tz=${encodeURIComponent(ZONE)}`,
    { key: form.apiKey },
  );
  expect(summary.status, summary.text).toBe(200);
  return summary.body;
}

/** A beacon as `navigator.sendBeacon` sends it: a POST without a body. */
function beacon(key: string, from: string, query = '', agent: string | null = FIREFOX) {
  return submit(key, {
    path: `/f/${key}/views${query}`,
    from,
    headers: {
      ...(agent === null ? {} : { 'user-agent': agent }),
      origin: 'https://shop.example',
      'content-type': 'text/plain;charset=UTF-8',
    },
  });
}

/** Sends `reached` beacons and expects each 204. */
async function steps(key: string, from: string, ...reached: string[]) {
  for (const each of reached) {
    const sent = await beacon(key, from, `?reached=${each}`);
    expect(sent.status, `reached=${each}: ${sent.text}`).toBe(204);
  }
}

const paged = () => newForm('free', { fields: FIELDS, pages: PAGES });

describe('POST /f/{key}/views?reached=…: the steps of the funnel', () => {
  it('counts views, starts, pages reached and sends, not a robot’s, read back over a range of days in a zone', async () => {
    const form = await paged();
    // Ann goes through every page and sends; Bo stops on page 2; Cy only looks.
    const [ann, bo, cy] = [freshVisitor(), freshVisitor(), freshVisitor()];
    for (const visitor of [ann, bo, cy]) expect((await beacon(form.key, visitor)).status).toBe(204);
    await steps(form.key, ann, 'started', '2', '3');
    await steps(form.key, bo, 'started', '2');
    const sent = await submit(form.key, {
      form: { kind: 'Business', company: 'Acme', message: 'Hello', _views: 'counted' },
      from: ann,
      headers: { 'user-agent': FIREFOX },
    });
    expect(sent.status, sent.text).toBe(200);
    // A post by the API (no `_views`: its page counts no views) is stored but not a step of the funnel.
    const own = await submit(form.key, { json: { kind: 'Personal' }, from: freshVisitor() });
    expect(own.status, own.text).toBe(200);

    // A robot, and a request without a User-Agent, are answered the same and counted nowhere.
    const robot = freshVisitor();
    for (const query of ['', '?reached=started', '?reached=2', '?reached=3']) {
      expect((await beacon(form.key, robot, query, BOT)).status).toBe(204);
      expect((await beacon(form.key, robot, query, null)).status).toBe(204);
    }

    const summary = await eventually(
      () => summaryOf(form),
      (s) => s.totals.stored === 2,
      // `sent` comes through the table stream: seconds on a loaded machine.
      // Every half second: 100 ms for a minute would pass the API key's 300 requests a minute.
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(summary.funnel).toEqual({
      views: 3,
      started: 2,
      reached: [
        { step: 2, page: 'business', count: 2 },
        { step: 3, page: 'done', count: 1 },
      ],
      sent: 1,
    });
    // Steps are not views.
    expect(summary.totals.views).toBe(3);
  });

  it('refuses a step the form does not have, or any other value, at `reached` (400, never a 500)', async () => {
    const form = await paged();
    const visitor = freshVisitor();
    const refusal = async (query: string) => {
      const answer = await beacon(form.key, visitor, query);
      expect(answer.status, `${query}: ${answer.text}`).toBe(400);
      expect(answer.body?.error).toBe('invalid_request');
      const issues = (answer.body?.issues ?? []) as { path: string }[];
      return issues.map((issue) => issue.path);
    };
    // The form has 3 pages: 4 is past its last, and 10 is past it too.
    expect(await refusal('?reached=4')).toEqual(['reached']);
    expect(await refusal('?reached=10')).toEqual(['reached']);
    for (const bad of ['1', '0', '11', '02', 'Started', 'sent', '', '%00', 'x'.repeat(3000)]) {
      expect(await refusal(`?reached=${bad}`)).toEqual(['reached']);
    }
    // Two values of reached: API Gateway hands over the last; nothing else is taken.
    expect(await refusal('?reached=2&reached=9')).toEqual(['reached']);
    expect(await refusal('?reached=2&email=ann%40example.com')).toEqual(['email']);

    // A form without pages takes `started` only.
    const single = await newForm('free', { fields: FIELDS });
    const onePage = await beacon(single.key, visitor, '?reached=2');
    expect(onePage.status).toBe(400);
    expect(onePage.body?.issues).toEqual([
      {
        path: 'reached',
        code: 'too_big',
        message: 'This form has one page: only "started" is counted',
      },
    ]);
    expect((await beacon(single.key, visitor, '?reached=started')).status).toBe(204);
    // An unknown key is 404, as for a view.
    expect((await beacon('nosuchformkey1', visitor, '?reached=2')).status).toBe(404);

    const counted = await summaryOf(form);
    expect(counted.funnel).toMatchObject({ views: 0, started: 0 });
    expect(counted.funnel.reached.map((step) => step.count)).toEqual([0, 0]);
    expect((await summaryOf(single)).funnel).toEqual({
      views: 0,
      started: 1,
      reached: [],
      sent: 0,
    });
  });

  it('counts at most 10 steps a visitor a minute, on a budget of its own that leaves the views theirs', async () => {
    // The limit is a fixed minute: a burst that crosses into the next minute is tried again on a
    // fresh form (at most twice), since its 11th would then rightly count.
    for (let attempt = 1; ; attempt++) {
      const form = await paged();
      const visitor = freshVisitor();
      const minute = Math.floor(Date.now() / 60_000);
      await steps(form.key, visitor, 'started', ...Array.from({ length: 11 }, () => '2'));
      // The step budget is spent; a view of the same visitor still counts.
      expect((await beacon(form.key, visitor)).status).toBe(204);
      if (Math.floor(Date.now() / 60_000) !== minute && attempt < 3) continue;
      const { funnel } = await summaryOf(form);
      // 12 beacons: `started` and nine page 2s counted, the 11th and 12th not.
      expect(funnel).toMatchObject({ views: 1, started: 1 });
      expect(funnel.reached[0]).toEqual({ step: 2, page: 'business', count: 9 });
      break;
    }
  });

  it('keeps nothing about the visitor: the hour holds two counts, the rate window a hash and a count', async () => {
    const form = await paged();
    const visitor = freshVisitor();
    const minutes = [Math.floor(Date.now() / 60_000)];
    await steps(form.key, visitor, 'started', '2');
    minutes.push(Math.floor(Date.now() / 60_000));
    const { documents } = await localStore();
    const { Items = [] } = await documents.send(
      new QueryCommand({
        TableName: stack().tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `FORM#${form.id}` },
      }),
    );
    expect(JSON.stringify(Items)).not.toContain(visitor);
    expect(JSON.stringify(Items)).not.toContain('Firefox');
    const bucket = Items.find((item) => String(item.sk).startsWith('STAT#H'));
    expect(Object.keys(bucket ?? {}).sort()).toEqual(['entity', 'pg:2', 'pk', 'sk', 'st']);
    expect(bucket).toMatchObject({ st: 1, 'pg:2': 1 });

    // The step window of this minute (or the next, if it turned) is named by a hash of the
    // address and agent, and holds only its count and its expiry.
    const scope = stepVisitorScope(form.id, visitorIdentity(visitor, FIREFOX));
    expect(scope).not.toContain(visitor);
    const windows = await Promise.all(
      [...new Set(minutes)].map((minute) =>
        documents.send(
          new GetCommand({
            TableName: stack().tableName,
            Key: rateWindowKey(scope, minute * 60_000),
          }),
        ),
      ),
    );
    const counted = windows.flatMap((window) => (window.Item ? [window.Item] : []));
    expect(counted.reduce((n, item) => n + Number(item.hits), 0)).toBe(2);
    for (const item of counted) {
      expect(Object.keys(item).sort()).toEqual(['expiresAt', 'hits', 'pk', 'sk']);
    }
  });
});
