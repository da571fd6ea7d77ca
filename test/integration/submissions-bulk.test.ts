import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { api } from '#test/support/api.ts';
import { newForm, storedItems, type TestForm } from '#test/support/forms.ts';
import { bulk, expectCountersExact, listSubmissions, postAll } from '#test/support/inbox.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, multipart, submit } from '#test/support/submit.ts';
import { uploadsOf } from '#test/support/uploads.ts';

const answers = (n: number, tag = 'm') =>
  Array.from({ length: n }, (_, i) => ({ message: `${tag} ${i} ${crypto.randomUUID()}` }));

async function formCount(form: TestForm): Promise<number> {
  const { body } = await api<{ forms: { id: string; submissionCount: number }[] }>(
    'GET',
    '/v1/forms',
    { key: form.apiKey },
  );
  return body.forms.find((f) => f.id === form.id)!.submissionCount;
}

describe('PATCH /v1/forms/{id}/submissions', () => {
  it('an ids target changes only this form’s submissions and counts only real changes', async () => {
    const form = await newForm('pro');
    const ids = await postAll(form, answers(4));
    const sibling = await newForm('pro');
    const [foreign] = await postAll(sibling, answers(1, 'other'));
    const target = { ids: [ids[0], ids[1], foreign, crypto.randomUUID(), 'not-an-id', ids[0]] };
    const first = await bulk(form, 'PATCH', { target, read: true });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ count: 2 });
    // Already read: nothing changes, nothing is counted; the other form is untouched.
    expect((await bulk(form, 'PATCH', { target, read: true })).body).toEqual({ count: 0 });
    expect((await bulk(form, 'PATCH', { target: { ids }, read: true })).body).toEqual({ count: 2 });
    const foreignNow = await api('GET', `/v1/forms/${sibling.id}/submissions/${foreign}`, {
      key: sibling.apiKey,
    });
    expect(foreignNow.body.read).toBe(false);
    // Several flags at once: count is submissions changed, not flags.
    const both = await bulk(form, 'PATCH', { target: { ids }, read: false, starred: true });
    expect(both.body).toEqual({ count: 4 });
    expect((await listSubmissions(form, '?filter=starred')).body.total).toBe(4);
    expect((await listSubmissions(form)).body.unreadCount).toBe(4);
    await expectCountersExact(form.id);
    await expectCountersExact(sibling.id);
  });

  it('a { filter, asOf } target leaves a submission received after asOf untouched', async () => {
    const form = await newForm('pro');
    const early = await postAll(form, answers(3));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const asOf = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [late] = await postAll(form, answers(1, 'late'));
    const changed = await bulk(form, 'PATCH', { target: { filter: 'unread', asOf }, read: true });
    expect(changed.body).toEqual({ count: 3 });
    const unread = await listSubmissions(form, '?filter=unread');
    expect(unread.body.items.map((i) => i.id)).toEqual([late]);
    for (const id of early) {
      const one = await api('GET', `/v1/forms/${form.id}/submissions/${id}`, { key: form.apiKey });
      expect(one.body.read).toBe(true);
    }
    await expectCountersExact(form.id);
  });

  it('moving to spam and back keeps every counter exact, submissionCount included', async () => {
    const form = await newForm('pro');
    const ids = await postAll(form, answers(5));
    await bulk(form, 'PATCH', { target: { ids: [ids[0]] }, read: true, starred: true });
    expect(await formCount(form)).toBe(5);
    const toSpam = await bulk(form, 'PATCH', { target: { ids: ids.slice(0, 3) }, isSpam: true });
    expect(toSpam.body).toEqual({ count: 3 });
    await expectCountersExact(form.id);
    expect(await formCount(form)).toBe(2);
    const all = await listSubmissions(form);
    expect(all.body).toMatchObject({ total: 2, unreadCount: 2 });
    const spam = await listSubmissions(form, '?filter=spam');
    expect(spam.body.items.map((i) => i.id)).toEqual(ids.slice(0, 3).reverse());
    // Spam keeps its read and starred flags, and gets them back in the inbox.
    expect((await listSubmissions(form, '?filter=starred')).body.total).toBe(0);
    const back = await bulk(form, 'PATCH', {
      target: { filter: 'spam', asOf: new Date().toISOString() },
      isSpam: false,
    });
    expect(back.body).toEqual({ count: 3 });
    await expectCountersExact(form.id);
    expect(await formCount(form)).toBe(5);
    expect((await listSubmissions(form, '?filter=starred')).body.items.map((i) => i.id)).toEqual([
      ids[0],
    ]);
    expect((await listSubmissions(form)).body).toMatchObject({ total: 5, unreadCount: 4 });
  });

  it('the same bulk request sent twice at once changes each submission once, exactly', async () => {
    const form = await newForm('pro');
    await postAll(form, answers(12));
    const body = { target: { filter: 'all', asOf: new Date().toISOString() }, isSpam: true };
    const [a, b] = await Promise.all([bulk(form, 'PATCH', body), bulk(form, 'PATCH', body)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.count + b.body.count).toBe(12);
    await expectCountersExact(form.id);
    expect((await listSubmissions(form, '?filter=spam')).body.total).toBe(12);
  });

  it('refuses a malformed body with 400 and issues, changing nothing', async () => {
    const form = await newForm('pro');
    const [id] = await postAll(form, answers(1));
    const asOf = new Date().toISOString();
    const bad: unknown[] = [
      { read: true },
      { target: { ids: [id] } },
      { target: { ids: [] }, read: true },
      { target: { ids: Array.from({ length: 1001 }, () => id) }, read: true },
      { target: { ids: [id], filter: 'all', asOf }, read: true },
      { target: { filter: 'all' }, read: true },
      { target: { filter: 'archive', asOf }, read: true },
      { target: { filter: 'all', asOf: 'yesterday' }, read: true },
      { target: { ids: [id] }, read: 'yes' },
      { target: { ids: [id] }, read: true, pinned: true },
      { target: { ids: [42] }, read: true },
    ];
    for (const body of bad) {
      const response = await bulk(form, 'PATCH', body);
      expect(response.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(response.body).toMatchObject({ ok: false, error: 'invalid_request' });
    }
    const malformed = await api('PATCH', `/v1/forms/${form.id}/submissions`, {
      key: form.apiKey,
      rawBody: '{"target":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect((await listSubmissions(form)).body.unreadCount).toBe(1);
    // 1,000 ids is the bound, and is taken.
    const atBound = await bulk(form, 'PATCH', {
      target: { ids: Array.from({ length: 1000 }, (_, i) => (i === 0 ? id : crypto.randomUUID())) },
      read: true,
    });
    expect(atBound.body).toEqual({ count: 1 });
  });
});

describe('DELETE /v1/forms/{id}/submissions', () => {
  it('deletes by ids with their files; counters move, the month’s usage does not', async () => {
    const form = await newForm('pro', { allowUploads: true });
    const withFiles: string[] = [];
    for (const name of ['a.pdf', 'b.pdf']) {
      const post = await multipart((f) => {
        f.append('message', `file ${name}`);
        f.append('doc', new Blob([Buffer.from(`%PDF ${name}`)], { type: 'application/pdf' }), name);
      });
      const response = await submit(form.key, { ...post, from: freshVisitor() });
      expect(response.status, response.text).toBe(200);
      withFiles.push(response.body?.submissionId as string);
    }
    const plain = await postAll(form, answers(2));
    expect(await uploadsOf(form.id)).toHaveLength(2);
    const { usage } = await localStore();
    const month = new Date().toISOString().slice(0, 7);
    const usageBefore = await usage.monthlyUsage(form.teamId, month);

    const deleted = await bulk(form, 'DELETE', {
      target: { ids: [withFiles[0], plain[0], crypto.randomUUID()] },
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ count: 2 });
    expect(await uploadsOf(form.id)).toEqual([`forms/${form.id}/${withFiles[1]}/0`]);
    expect((await storedItems(form.id)).map((i) => i.id).sort()).toEqual(
      [withFiles[1], plain[1]].sort(),
    );
    await expectCountersExact(form.id);
    expect(await formCount(form)).toBe(2);
    expect(await usage.monthlyUsage(form.teamId, month)).toBe(usageBefore);
    const gone = await api('GET', `/v1/forms/${form.id}/submissions/${withFiles[0]}`, {
      key: form.apiKey,
    });
    expect(gone.status).toBe(404);
    // Irreversible and idempotent: deleting again deletes nothing.
    expect((await bulk(form, 'DELETE', { target: { ids: [withFiles[0]] } })).body).toEqual({
      count: 0,
    });
  });

  it('deletes a folder as of a moment: spam only, later arrivals kept, files removed', async () => {
    const form = await newForm('pro', { allowUploads: true });
    const ids = await postAll(form, answers(4));
    await bulk(form, 'PATCH', { target: { ids: ids.slice(0, 3) }, isSpam: true });
    const asOf = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [late] = await postAll(form, [{ name: 'https://spam.example', message: 'late spam' }]);
    const response = await bulk(form, 'DELETE', { target: { filter: 'spam', asOf } });
    expect(response.body).toEqual({ count: 3 });
    expect((await storedItems(form.id)).map((i) => i.id).sort()).toEqual([ids[3], late].sort());
    expect((await listSubmissions(form, '?filter=spam')).body.items.map((i) => i.id)).toEqual([
      late,
    ]);
    await expectCountersExact(form.id);
  });

  it('a { filter } target acts only on submissions still in that folder: a lagging index (left so by hand here) deletes or moves nothing that left it', async () => {
    const form = await newForm('pro');
    const [spam, unspammed, unstarred] = await postAll(form, answers(3));
    await bulk(form, 'PATCH', { target: { ids: [spam] }, isSpam: true });
    await bulk(form, 'PATCH', { target: { ids: [unstarred] }, starred: true });
    await bulk(form, 'PATCH', { target: { ids: [unstarred] }, starred: false });
    // The indexes as DynamoDB may still show them a moment after a move: `unspammed` in
    // spam (just moved out of it) and `unstarred` in starred; their flags say otherwise.
    const { documents } = await localStore();
    const lag = (id: string, attribute: string) =>
      documents.send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME,
          Key: { pk: `FORM#${form.id}`, sk: `SUB#${id}` },
          UpdateExpression: 'SET #index = :form',
          ExpressionAttributeNames: { '#index': attribute },
          ExpressionAttributeValues: { ':form': `FORM#${form.id}` },
        }),
      );
    await lag(unspammed!, 'subSpamPk');
    await lag(unstarred!, 'subStarredPk');
    const asOf = new Date().toISOString();

    const moved = await bulk(form, 'PATCH', { target: { filter: 'starred', asOf }, isSpam: true });
    expect(moved.body).toEqual({ count: 0 });
    const emptied = await bulk(form, 'DELETE', { target: { filter: 'spam', asOf } });
    expect(emptied.body).toEqual({ count: 1 });
    expect((await storedItems(form.id)).map((i) => i.id).sort()).toEqual(
      [unspammed, unstarred].sort(),
    );
    const kept = await api('GET', `/v1/forms/${form.id}/submissions/${unstarred}`, {
      key: form.apiKey,
    });
    expect(kept.body).toMatchObject({ isSpam: false, starred: false });
  });

  it('needs a target: anything else is 400 and deletes nothing', async () => {
    const form = await newForm('pro');
    await postAll(form, answers(1));
    for (const body of [undefined, {}, { target: { ids: [] } }, { target: { filter: 'all' } }]) {
      const response = await bulk(form, 'DELETE', body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ ok: false, error: 'invalid_request' });
    }
    expect(await storedItems(form.id)).toHaveLength(1);
  });
});
