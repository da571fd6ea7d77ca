import { PutObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { api, stack } from '#test/support/api.ts';
import { newForm, storedItems, type TestForm } from '#test/support/forms.ts';
import { eventually } from '#test/support/poll.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import { s3, uploadsOf } from '#test/support/uploads.ts';
import { TEST_SPAM_CAP } from './stack-settings.ts';

const DAY_MS = 86_400_000;

/** A post the link rule marks as spam; `n` keeps each one distinct. */
const linkSpam = (n: number | string) => ({
  message: `offer ${n}: http://a.example http://b.example http://c.example`,
});

async function folderTotal(form: TestForm, filter: string) {
  const response = await api(
    'GET',
    `/v1/forms/${form.id}/submissions?filter=${filter}&pageSize=100`,
    {
      key: form.apiKey,
    },
  );
  expect(response.status).toBe(200);
  return {
    total: response.body.total as number,
    ids: (response.body.items as { id: string }[]).map((i) => i.id),
  };
}

describe('spam is stored, within bounds', () => {
  it(`a form stores at most the monthly spam cap (${TEST_SPAM_CAP} here), even at once; later spam is dropped with 200 { ok: true }`, async () => {
    const form = await newForm('pro');
    const extra = 12;
    const responses = await Promise.all(
      Array.from({ length: TEST_SPAM_CAP + extra }, (_, i) =>
        submit(form.key, { json: linkSpam(i), from: freshVisitor() }),
      ),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const kept = responses.filter((r) => r.body?.submissionId);
    const dropped = responses.filter((r) => !r.body?.submissionId);
    expect(kept).toHaveLength(TEST_SPAM_CAP);
    expect(dropped.map((r) => r.body)).toEqual(Array(extra).fill({ ok: true }));
    expect(await storedItems(form.id)).toHaveLength(TEST_SPAM_CAP);
    expect((await folderTotal(form, 'spam')).total).toBe(TEST_SPAM_CAP);

    // Clean posts are untouched by the spam cap; a duplicate of one (the same visitor) is spam,
    // so dropped now.
    const visitor = freshVisitor();
    const clean = await submit(form.key, { json: { message: 'A real question' }, from: visitor });
    expect(clean.body).toEqual({ ok: true, submissionId: expect.any(String) });
    const duplicate = await submit(form.key, {
      json: { message: 'a real question ' },
      from: visitor,
    });
    expect(duplicate.body).toEqual({ ok: true });
    expect(await storedItems(form.id)).toHaveLength(TEST_SPAM_CAP + 1);

    // The cap is per form: another form of the same team still stores spam.
    const other = await api('POST', '/v1/forms', { key: form.apiKey, body: { name: 'Other' } });
    const otherSpam = await submit(other.body.key as string, {
      json: linkSpam('x'),
      from: freshVisitor(),
    });
    expect(otherSpam.body).toEqual({ ok: true, submissionId: expect.any(String) });
  });

  it('spam over 30 days old (from receipt, or from when the owner moved it to spam) is deleted with its files when the form next stores spam; counters stay exact', async () => {
    const form = await newForm('pro', { allowUploads: true });
    await localStore();
    const now = Date.now();
    // Seeded clean, then moved to spam by the owner: an inserted spam item would itself wake
    // the purger. Spam the owner moved there counts from the move.
    const old = await seedSubmissions({
      formId: form.id,
      teamId: form.teamId,
      count: 6,
      receivedAt: (i) => new Date(now - (31 + i) * DAY_MS),
      meta: (i) => ({
        userAgent: 'seed',
        referrer: '',
        files: i === 0 ? [{ name: 'old.txt', mime: 'text/plain', size: 3 }] : undefined,
      }),
    });
    const recent = await seedSubmissions({
      formId: form.id,
      teamId: form.teamId,
      count: 3,
      receivedAt: (i) => new Date(now - (29 - i) * DAY_MS),
    });
    const marked = await api('PATCH', `/v1/forms/${form.id}/submissions`, {
      key: form.apiKey,
      body: { target: { ids: [...old.ids, ...recent.ids] }, isSpam: true },
    });
    expect(marked.body).toEqual({ count: 9 });
    // The move stamps spamAt; five of the old ones were moved long ago (stamped so by hand,
    // as 31 days would leave them), the sixth today: it is kept, though received 36 days ago.
    const { documents } = await localStore();
    const movedToday = old.ids[5]!;
    for (const [i, id] of old.ids.slice(0, 5).entries()) {
      await documents.send(
        new UpdateCommand({
          TableName: stack().tableName,
          Key: { pk: `FORM#${form.id}`, sk: `SUB#${id}` },
          UpdateExpression: 'SET spamAt = :at',
          ConditionExpression: 'attribute_exists(spamAt)',
          ExpressionAttributeValues: { ':at': new Date(now - (31 + i) * DAY_MS).toISOString() },
        }),
      );
    }
    const oldClean = await seedSubmissions({
      formId: form.id,
      teamId: form.teamId,
      count: 2,
      receivedAt: (i) => new Date(now - (60 + i) * DAY_MS),
    });
    const oldWithFile = old.ids[0]!;
    const fileKey = `forms/${form.id}/${oldWithFile}/0`;
    await s3().send(
      new PutObjectCommand({ Bucket: stack().uploadsBucket, Key: fileKey, Body: 'old' }),
    );
    expect((await folderTotal(form, 'spam')).total).toBe(9);

    // Clean posts do not purge: only stored spam wakes the purger.
    const clean = await submit(form.key, { json: { message: 'hello' }, from: freshVisitor() });
    expect(clean.status).toBe(200);
    const spam = await submit(form.key, { json: linkSpam('new'), from: freshVisitor() });
    const newSpam = spam.body?.submissionId as string;
    expect(newSpam).toEqual(expect.any(String));

    const after = await eventually(
      () => folderTotal(form, 'spam'),
      (folder) => folder.total === 5,
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(after.total).toBe(5);
    expect(after.ids.sort()).toEqual([...recent.ids, movedToday, newSpam].sort());
    const all = await folderTotal(form, 'all');
    expect(all.total).toBe(3);
    expect(all.ids.sort()).toEqual([...oldClean.ids, clean.body?.submissionId as string].sort());
    const items = await storedItems(form.id);
    expect(items).toHaveLength(8);
    // What the API shows of a submission: spamAt is stored only.
    const shown = await api('GET', `/v1/forms/${form.id}/submissions/${movedToday}`, {
      key: form.apiKey,
    });
    expect(shown.body).toMatchObject({ id: movedToday, isSpam: true });
    expect(shown.body).not.toHaveProperty('spamAt');
    expect(await uploadsOf(form.id)).not.toContain(fileKey);
    const list = await api('GET', '/v1/forms', { key: form.apiKey });
    const listed = (list.body.forms as { id: string; submissionCount: number }[]).find(
      (f) => f.id === form.id,
    );
    expect(listed?.submissionCount).toBe(3);
  });
});
