import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { bulk, listSubmissions, postAll } from '#test/support/inbox.ts';

const LONG = `${'word '.repeat(60)}end`;

/** Seven posts, oldest first: #2 is link spam (a link in a name field), #4 has a long message. */
const ANSWERS = [
  { name: 'Ada', message: 'first' },
  { name: 'Bob', message: 'second' },
  { name: 'http://spam.example', message: 'buy now' },
  { name: 'Cy', message: 'fourth' },
  { name: 'Di', message: LONG },
  { name: 'Ed', message: 'sixth' },
  { name: 'Flo', message: 'seventh' },
];

describe('GET /v1/forms/{id}/submissions', () => {
  let form: TestForm;
  let ids: string[];
  /** Newest first, spam left out: what `filter=all` lists. */
  let inbox: string[];

  beforeAll(async () => {
    form = await newForm('pro');
    ids = await postAll(form, ANSWERS);
    inbox = [...ids].reverse().filter((id) => id !== ids[2]);
    // #1 and #3 read, #1 and #5 starred, #6 starred too.
    expect(
      (await bulk(form, 'PATCH', { target: { ids: [ids[1], ids[3]] }, read: true })).status,
    ).toBe(200);
    expect(
      (await bulk(form, 'PATCH', { target: { ids: [ids[1], ids[5], ids[6]] }, starred: true }))
        .status,
    ).toBe(200);
  });

  it('lists everything but spam newest first, with the defaults and the list object of docs/submissions.md#folders-and-paging', async () => {
    const before = Date.now();
    const { status, body } = await listSubmissions(form);
    expect(status).toBe(200);
    expect(body.items.map((item) => item.id)).toEqual(inbox);
    expect(body).toMatchObject({ page: 1, pageSize: 15, pageCount: 1, total: 6, unreadCount: 4 });
    expect(Date.parse(body.asOf)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.asOf)).toBeLessThanOrEqual(Date.now());
    const item = body.items.find((i) => i.id === ids[0])!;
    expect(item).toMatchObject({
      id: ids[0],
      formId: form.id,
      data: { name: 'Ada', message: 'first' },
      read: false,
      starred: false,
      isSpam: false,
      isTest: false,
      preview: 'first',
    });
    expect(Object.keys(item)).not.toContain('teamId');
  });

  it('each filter lists its folder; unreadCount is the whole form whatever the filter', async () => {
    const unread = await listSubmissions(form, '?filter=unread');
    expect(unread.body.items.map((i) => i.id)).toEqual([ids[6], ids[5], ids[4], ids[0]]);
    expect(unread.body).toMatchObject({ total: 4, unreadCount: 4 });
    const starred = await listSubmissions(form, '?filter=starred');
    expect(starred.body.items.map((i) => i.id)).toEqual([ids[6], ids[5], ids[1]]);
    expect(starred.body).toMatchObject({ total: 3, unreadCount: 4 });
    const spam = await listSubmissions(form, '?filter=spam');
    expect(spam.body.items.map((i) => i.id)).toEqual([ids[2]]);
    expect(spam.body).toMatchObject({ total: 1, unreadCount: 4 });
    expect(spam.body.items[0]).toMatchObject({ isSpam: true, read: false });
  });

  it('pages newest first; a page past the end is the last page; pageCount counts pages', async () => {
    const pages = [];
    for (const page of [1, 2, 3]) {
      const { body } = await listSubmissions(form, `?pageSize=2&page=${page}`);
      expect(body).toMatchObject({ page, pageSize: 2, pageCount: 3, total: 6 });
      pages.push(...body.items.map((i) => i.id));
    }
    expect(pages).toEqual(inbox);
    const past = await listSubmissions(form, '?pageSize=4&page=99');
    expect(past.body).toMatchObject({ page: 2, pageCount: 2 });
    expect(past.body.items.map((i) => i.id)).toEqual(inbox.slice(4));
  });

  it('a post between two page reads pushes the list down: the same submission shows on both pages', async () => {
    const moving = await newForm('pro');
    const posted = await postAll(moving, [{ message: 'a' }, { message: 'b' }, { message: 'c' }]);
    const first = await listSubmissions(moving, '?pageSize=2&page=1');
    expect(first.body.items.map((i) => i.id)).toEqual([posted[2], posted[1]]);
    await postAll(moving, [{ message: 'd' }]);
    const second = await listSubmissions(moving, '?pageSize=2&page=2');
    // Rule 6: clients de-duplicate by id.
    expect(second.body.items.map((i) => i.id)).toEqual([posted[1], posted[0]]);
    expect(Date.parse(second.body.asOf)).toBeGreaterThan(Date.parse(first.body.asOf));
  });

  it('around returns the page holding that submission when it matches the filter', async () => {
    // inbox: [6, 5, 4, 3, 1, 0]; with pageSize 2, #1 is on page 3 and #4 on page 2.
    const holding = await listSubmissions(form, `?pageSize=2&around=${ids[1]}`);
    expect(holding.body.page).toBe(3);
    expect(holding.body.items.map((i) => i.id)).toEqual([ids[1], ids[0]]);
    // It wins over page.
    const overPage = await listSubmissions(form, `?pageSize=2&page=1&around=${ids[4]}`);
    expect(overPage.body.page).toBe(2);
    expect(overPage.body.items.map((i) => i.id)).toEqual([ids[4], ids[3]]);
    // Inside another filter it counts that filter's order: unread [6, 5, 4, 0].
    const unread = await listSubmissions(form, `?filter=unread&pageSize=3&around=${ids[0]}`);
    expect(unread.body.page).toBe(2);
    expect(unread.body.items.map((i) => i.id)).toEqual([ids[0]]);
  });

  it('around a submission outside the filter, or unknown, falls back to page', async () => {
    const spamInAll = await listSubmissions(form, `?pageSize=2&page=2&around=${ids[2]}`);
    expect(spamInAll.body.page).toBe(2);
    expect(spamInAll.body.items.map((i) => i.id)).toEqual(inbox.slice(2, 4));
    const readInUnread = await listSubmissions(form, `?filter=unread&around=${ids[1]}`);
    expect(readInUnread.body.page).toBe(1);
    const unknown = await listSubmissions(form, `?around=${crypto.randomUUID()}&pageSize=1`);
    expect(unknown.body.page).toBe(1);
    expect(unknown.body.items.map((i) => i.id)).toEqual([inbox[0]]);
  });

  it('preview is the longest answer cut to 140 characters ending in an ellipsis', async () => {
    const { body } = await listSubmissions(form);
    const long = body.items.find((i) => i.id === ids[4])!;
    expect([...long.preview]).toHaveLength(140);
    expect(long.preview.endsWith('…')).toBe(true);
    expect(LONG.startsWith(long.preview.slice(0, -1))).toBe(true);
    expect(body.items.find((i) => i.id === ids[5])!.preview).toBe('sixth');
  });

  it('pageSize 1 and 100 are taken; 0, 101, a bad page, filter or around, or an unknown parameter are 400', async () => {
    expect((await listSubmissions(form, '?pageSize=1')).body.items).toHaveLength(1);
    expect((await listSubmissions(form, '?pageSize=100')).body.items).toHaveLength(6);
    for (const query of [
      '?pageSize=0',
      '?pageSize=101',
      '?pageSize=2.5',
      '?page=0',
      '?page=-1',
      '?page=abc',
      '?filter=archived',
      '?around=not-an-id',
      '?sort=oldest',
    ]) {
      const response = await listSubmissions(form, query);
      expect(response.status, query).toBe(400);
      expect(response.body, query).toMatchObject({ ok: false, error: 'invalid_request' });
      expect(
        (response.body as unknown as { issues: unknown[] }).issues.length,
        query,
      ).toBeGreaterThan(0);
    }
  });

  it('an empty folder has one empty page', async () => {
    const empty = await newForm('pro');
    const { status, body } = await listSubmissions(empty, '?page=5');
    expect(status).toBe(200);
    expect(body).toMatchObject({ items: [], page: 1, pageCount: 1, total: 0, unreadCount: 0 });
  });

  it('test submissions are listed, marked isTest, and left out of submissionCount', async () => {
    const other = await newForm('pro', {}, { name: 'Tests', type: 'contact' });
    const test = await api('POST', `/v1/forms/${other.id}/test-submissions`, { key: other.apiKey });
    expect(test.status).toBe(201);
    const { body } = await listSubmissions(other);
    expect(body.items.map((i) => i.id)).toEqual([test.body.submissionId]);
    expect(body.items[0]).toMatchObject({ isTest: true, read: false });
    expect(body).toMatchObject({ total: 1, unreadCount: 1 });
    const forms = await api<{ forms: { id: string; submissionCount: number }[] }>(
      'GET',
      '/v1/forms',
      {
        key: other.apiKey,
      },
    );
    expect(forms.body.forms.find((f) => f.id === other.id)?.submissionCount).toBe(0);
  });
});

describe('GET /v1/forms/{id}/submissions/{submissionId}', () => {
  it('returns the submission and leaves it unread', async () => {
    const form = await newForm('pro');
    const [id] = await postAll(form, [{ email: 'ada@example.com', message: 'hello' }]);
    const one = await api(`GET`, `/v1/forms/${form.id}/submissions/${id}`, { key: form.apiKey });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      id,
      formId: form.id,
      data: { email: 'ada@example.com', message: 'hello' },
      read: false,
      meta: { referrer: '' },
    });
    expect(Object.keys(one.body).sort()).toEqual(
      [
        'confirmation',
        'createdAt',
        'data',
        'emails',
        'formId',
        'id',
        'isSpam',
        'isTest',
        'meta',
        'read',
        'starred',
      ].sort(),
    );
    const again = await api(`GET`, `/v1/forms/${form.id}/submissions/${id}`, { key: form.apiKey });
    expect(again.body.read).toBe(false);
    expect((await listSubmissions(form, '?filter=unread')).body.total).toBe(1);
  });

  it('answers 404 for an unknown id, a malformed id, or a submission of another form', async () => {
    const form = await newForm('pro');
    const other = await newForm('pro');
    const [foreign] = await postAll(other, [{ message: 'elsewhere' }]);
    for (const id of [crypto.randomUUID(), 'nope', 'x'.repeat(2000), foreign]) {
      const response = await api('GET', `/v1/forms/${form.id}/submissions/${id}`, {
        key: form.apiKey,
      });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ ok: false, error: 'not_found' });
    }
  });
});

describe('submission routes outside the key team', () => {
  it('answer 404 for the list, one submission, a file and the bulk routes', async () => {
    const form = await newForm('pro');
    const [id] = await postAll(form, [{ message: 'mine' }]);
    const stranger = await newForm('pro');
    const target = { target: { ids: [id] } };
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/forms/${form.id}/submissions`],
      ['GET', `/v1/forms/${form.id}/submissions/${id}`],
      ['GET', `/v1/forms/${form.id}/submissions/${id}/files/0`],
      ['PATCH', `/v1/forms/${form.id}/submissions`, { ...target, read: true }],
      ['DELETE', `/v1/forms/${form.id}/submissions`, target],
    ];
    for (const [method, path, body] of calls) {
      const response = await api(method, path, { key: stranger.apiKey, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toMatchObject({ ok: false, error: 'not_found' });
    }
    const still = await api('GET', `/v1/forms/${form.id}/submissions/${id}`, { key: form.apiKey });
    expect(still.body).toMatchObject({ id, read: false });
  });
});
