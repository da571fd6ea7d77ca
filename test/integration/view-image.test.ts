import { describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { eventually } from '#test/support/poll.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

/**
 * Views of a page without script (docs/analytics.md#views): the view image
 * `GET /f/{key}/views` counts by the beacon's rules; posts say whether their
 * page counted its view (`_views`), and the conversion rate never divides by
 * views that were not counted.
 */

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

type Totals = {
  views: number;
  stored: number;
  conversionRate: number | null;
  postsWithoutViews: number;
  viewsNotCounted: boolean;
};

async function totals(form: TestForm): Promise<Totals> {
  const today = new Date().toISOString().slice(0, 10);
  const summary = await api<{ totals: Totals }>(
    'GET',
    `/v1/forms/${form.id}/summary?from=${today}&to=${today}&tz=UTC`,
    { key: form.apiKey },
  );
  expect(summary.status, summary.text).toBe(200);
  return summary.body.totals;
}

/** The view image, as an `<img>` asks for it. */
function image(key: string, from: string, agent = FIREFOX) {
  return submit(key, {
    method: 'GET',
    path: `/f/${key}/views`,
    from,
    headers: { 'user-agent': agent, accept: 'image/avif,image/webp,image/*,*/*;q=0.8' },
  });
}

describe('GET /f/{key}/views: the view image', () => {
  it('answers an empty 1 × 1 SVG, never cached, and counts by the beacon’s rules', async () => {
    const form = await newForm('free');
    const visitor = freshVisitor();
    // The visitor's budget is a clock minute's: begin with 20 s of it left, so the 13 loads
    // below never straddle two minutes (under the whole suite's load they once did: 11 views).
    await expect.poll(() => Date.now() % 60_000, { timeout: 30_000 }).toBeLessThan(40_000);
    const first = await image(form.key, visitor);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('image/svg+xml');
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.text).toBe('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
    expect((await totals(form)).views).toBe(1);

    // A robot is not counted; nor a visitor past 10 a minute (image and beacon together).
    expect((await image(form.key, freshVisitor(), BOT)).status).toBe(200);
    for (let i = 0; i < 12; i++) await image(form.key, visitor);
    expect((await totals(form)).views).toBe(10);
    const beacon = await submit(form.key, {
      path: `/f/${form.key}/views`,
      from: visitor,
      headers: { 'user-agent': FIREFOX },
    });
    expect(beacon.status).toBe(204);
    expect((await totals(form)).views).toBe(10);

    // A HEAD (a link checker) answers as the GET and counts nothing.
    const head = await submit(form.key, {
      method: 'HEAD',
      path: `/f/${form.key}/views`,
      from: freshVisitor(),
      headers: { 'user-agent': FIREFOX },
    });
    expect(head.status).toBe(200);
    expect((await totals(form)).views).toBe(10);

    const unknown = await image('nosuchformkey1', freshVisitor());
    expect(unknown.status).toBe(404);
  });
});

describe('the conversion rate counts only views that were counted', () => {
  it('a post without `_views` (an own form, the API) is marked and left out of the rate; one with it is in', async () => {
    const form = await newForm('free');
    const visitor = freshVisitor();
    await image(form.key, visitor);
    await image(form.key, freshVisitor());
    const counted = await submit(form.key, {
      form: { message: 'From the pasted form', _views: 'counted' },
      from: visitor,
    });
    const own = await submit(form.key, { json: { message: 'From the API' }, from: freshVisitor() });
    const read = (id: unknown) =>
      api<{ meta: { noView?: boolean }; data: Record<string, string> }>(
        'GET',
        `/v1/forms/${form.id}/submissions/${id}`,
        { key: form.apiKey },
      );
    const withView = (await read(counted.body?.submissionId)).body;
    expect(withView.meta).not.toHaveProperty('noView');
    expect(withView.data).toEqual({ message: 'From the pasted form' });
    expect((await read(own.body?.submissionId)).body.meta.noView).toBe(true);

    const after = await eventually(
      () => totals(form),
      (t) => t.stored === 2,
      // The summary reads the table stream: seconds on a loaded machine (the poll ends when met).
      // Every half second: 100 ms for a minute would pass the API key's 300 requests a minute.
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(after).toMatchObject({
      views: 2,
      stored: 2,
      postsWithoutViews: 1,
      conversionRate: 0.5,
      viewsNotCounted: false,
    });
  });

  it('more posts than views (a form pasted before its image) gives no rate: views not counted', async () => {
    const form = await newForm('free');
    await localStore();
    // Posts stored before posts said whether their page counted a view: 11, for 3 views.
    await seedSubmissions({ formId: form.id, teamId: form.teamId, count: 11 });
    for (let i = 0; i < 3; i++) await image(form.key, freshVisitor());
    const after = await eventually(
      () => totals(form),
      (t) => t.stored === 11,
      // Every half second: 100 ms for a minute would pass the API key's 300 requests a minute.
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(after).toMatchObject({
      views: 3,
      stored: 11,
      conversionRate: null,
      viewsNotCounted: true,
      postsWithoutViews: 0,
    });
  });
});
