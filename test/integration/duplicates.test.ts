import { describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { bulk, expectCountersExact, listSubmissions } from '#test/support/inbox.ts';
import { eventually } from '#test/support/poll.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

/**
 * The duplicate rule (docs/submit.md#link-spam-and-duplicates): the same
 * answers from the same visitor (address, an IPv6 one by /64, and user
 * agent) within 24 h go to spam; the same answers from different people are
 * answers. An owner can turn the rule off per form, and bring back in one
 * action what the older rule (any sender) took.
 */

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15';

/** A post of `json` from `from` with `agent`; its stored flags, read back through the API. */
async function posted(form: TestForm, json: Record<string, string>, from: string, agent: string) {
  const response = await submit(form.key, { json, from, headers: { 'user-agent': agent } });
  expect(response.status, response.text).toBe(200);
  const id = response.body?.submissionId as string;
  const one = await api('GET', `/v1/forms/${form.id}/submissions/${id}`, { key: form.apiKey });
  expect(one.status, one.text).toBe(200);
  return one.body as { id: string; isSpam: boolean; spamReason?: string; meta: { ip?: string } };
}

describe('a duplicate is the same answers from the same visitor', () => {
  it('the same score from different people is two answers; the same visitor twice is a duplicate', async () => {
    const form = await newForm('free');
    const score = { score: '9' };
    const ada = freshVisitor();
    const first = await posted(form, score, ada, FIREFOX);
    const grace = await posted(form, score, freshVisitor(), FIREFOX);
    const adaOnSafari = await posted(form, score, ada, SAFARI);
    const adaAgain = await posted(form, { score: ' 9 ' }, ada, FIREFOX);

    expect(first.isSpam).toBe(false);
    expect(grace.isSpam, 'another person, the same answer').toBe(false);
    expect(adaOnSafari.isSpam, 'the same address, another browser').toBe(false);
    expect(adaAgain).toMatchObject({ isSpam: true, spamReason: 'duplicate' });
    const forms = await api('GET', '/v1/forms', { key: form.apiKey });
    expect((forms.body.forms as { submissionCount: number }[])[0]?.submissionCount).toBe(3);
  });

  it('works on a form that keeps no addresses (dontStoreIp), storing none', async () => {
    const form = await newForm('free', { dontStoreIp: true });
    const visitor = freshVisitor();
    const first = await posted(form, { message: 'Same words' }, visitor, FIREFOX);
    const again = await posted(form, { message: 'Same words' }, visitor, FIREFOX);
    const other = await posted(form, { message: 'Same words' }, freshVisitor(), FIREFOX);
    expect(first.isSpam).toBe(false);
    expect(again).toMatchObject({ isSpam: true, spamReason: 'duplicate' });
    expect(other.isSpam).toBe(false);
    for (const each of [first, again, other]) expect(each.meta.ip).toBeUndefined();
  });

  it('an owner can turn the rule off per form (markDuplicates, on by default)', async () => {
    const form = await newForm('free');
    const read = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(read.body.markDuplicates).toBe(true);
    const off = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { markDuplicates: false },
    });
    expect(off.status, off.text).toBe(200);
    expect(off.body.markDuplicates).toBe(false);

    const visitor = freshVisitor();
    const first = await posted(form, { rsvp: 'Yes' }, visitor, FIREFOX);
    const again = await posted(form, { rsvp: 'Yes' }, visitor, FIREFOX);
    expect([first.isSpam, again.isSpam]).toEqual([false, false]);
    const bad = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { markDuplicates: 'no' },
    });
    expect(bad.status).toBe(400);
  });
});

describe('bringing back what the older rule took (docs/submissions.md#spam-reasons)', () => {
  it('lists spam by reason, moves every duplicate back in one request, counted, and the summary counts them', async () => {
    const form = await newForm('free', {
      fields: [{ id: 'score', type: 'rating', label: 'Score', min: 0, max: 10 }],
    });
    // What the older rule stored: the same score from different people, as duplicates.
    const { submissions } = await localStore();
    const seeded = await seedSubmissions({
      formId: form.id,
      teamId: form.teamId,
      count: 19,
      flags: { isSpam: true, spamReason: 'duplicate' },
      data: () => ({ score: '10' }),
    });
    const links = await submit(form.key, {
      json: { score: '3', note: 'http://a.example http://b.example http://c.example' },
      from: freshVisitor(),
    });
    const clean = await submit(form.key, { json: { score: '10' }, from: freshVisitor() });
    expect(
      (await submissions.getSubmission(form.id, clean.body?.submissionId as string))?.isSpam,
    ).toBe(false);

    const duplicates = await listSubmissions(form, '?filter=spam&reason=duplicate&pageSize=10');
    expect(duplicates.status, duplicates.text).toBe(200);
    expect(duplicates.body).toMatchObject({
      total: 19,
      pageCount: 2,
      reasonCounts: { links: 1, duplicate: 19, moved: 0, none: 0 },
    });
    expect(duplicates.body.items.map((item) => item.id)).toEqual(seeded.ids.slice(0, 10));
    const second = await listSubmissions(form, '?filter=spam&reason=duplicate&pageSize=10&page=2');
    expect(second.body.items.map((item) => item.id)).toEqual(seeded.ids.slice(10));
    const around = await listSubmissions(
      form,
      `?filter=spam&reason=duplicate&pageSize=10&around=${seeded.ids[15]}`,
    );
    expect(around.body.page).toBe(2);
    const linkSpam = await listSubmissions(form, '?filter=spam&reason=links');
    expect(linkSpam.body.items.map((item) => item.id)).toEqual([links.body?.submissionId]);

    // A reason narrows spam only.
    const notSpam = await listSubmissions(form, '?filter=all&reason=duplicate');
    expect(notSpam.status).toBe(400);
    expect(notSpam.text).toContain('reason');

    const asOf = duplicates.body.asOf;
    const back = await bulk(form, 'PATCH', {
      target: { filter: 'spam', reason: 'duplicate', asOf },
      isSpam: false,
    });
    expect(back.status, back.text).toBe(200);
    expect(back.body).toEqual({ count: 19 });
    // Sent again (a retry): nothing is left to change.
    const again = await bulk(form, 'PATCH', {
      target: { filter: 'spam', reason: 'duplicate', asOf },
      isSpam: false,
    });
    expect(again.body).toEqual({ count: 0 });

    const spam = await listSubmissions(form, '?filter=spam');
    expect(spam.body.items.map((item) => item.id)).toEqual([links.body?.submissionId]);
    const all = await listSubmissions(form, '?pageSize=100');
    expect(all.body.total).toBe(20);
    await expectCountersExact(form.id);
    const refused = await bulk(form, 'PATCH', {
      target: { filter: 'unread', reason: 'duplicate', asOf },
      isSpam: true,
    });
    expect(refused.status).toBe(400);

    // The summary counts them where they are now: 20 scores of 10 answered, one spam.
    const today = new Date().toISOString().slice(0, 10);
    type Summary = {
      totals: { stored: number; spam: number };
      fields: Record<string, { answered: number; counts: Record<string, number> }>;
    };
    const summary = await eventually(
      async () =>
        (
          await api<Summary>(
            'GET',
            `/v1/forms/${form.id}/summary?from=${today}&to=${today}&tz=UTC`,
            {
              key: form.apiKey,
            },
          )
        ).body,
      (body) => body.totals.stored === 20,
      // The summary reads the table stream: seconds on a loaded machine (the poll ends when met).
      // Every half second: 100 ms for a minute would pass the API key's 300 requests a minute.
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(summary.totals).toMatchObject({ stored: 20, spam: 1 });
    expect(summary.fields.score).toMatchObject({ answered: 20 });
    expect(summary.fields.score?.counts['10']).toBe(20);
  });
});
