import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { FORM_COUNTER_SHARDS, formCounterKey } from '#store/keys.ts';
import { INDEXES } from '#store/schema.ts';
import { admin, newTeam } from '#test/support/admin.ts';
import { api, stack } from '#test/support/api.ts';
import { newForm, storedItems, type TestForm } from '#test/support/forms.ts';
import { bulk, expectCountersExact } from '#test/support/inbox.ts';
import { localStore } from '#test/support/store.ts';
import { burst, freshVisitor, submit, tally } from '#test/support/submit.ts';

/**
 * The counters live on shards (docs/architecture.md#counters-and-shards): these tests
 * check that posts really spread over them and that every limit stays exact
 * across shards, including after owner changes that move counts.
 */

async function shardsOf(formId: string) {
  const { counters } = await localStore();
  return counters.readCounters(formId, { consistent: true });
}

const month = () => new Date().toISOString().slice(0, 7);

describe('form counters over shards', () => {
  it('maxSubmissions 50: 200 concurrent posts land on several shards and store exactly 50', async () => {
    const form = await newForm('pro', { maxSubmissions: 50 });
    expect(tally(await burst(form.key, 200, 'spread'))).toEqual({ 200: 50, 423: 150 });
    const read = await shardsOf(form.id);
    const used = [...read.shards.values()].filter((shard) => shard.counted > 0);
    expect(used.length).toBeGreaterThan(1);
    expect(read.counted).toBe(50);
    // Every shard respects its own share; the shares sum to the limit.
    for (const shard of read.shards.values()) {
      expect(shard.counted).toBeLessThanOrEqual(shard.cap as number);
    }
    expect([...read.shards.values()].reduce((sum, s) => sum + (s.cap ?? 0), 0)).toBe(50);
    expect(read.shards.size).toBe(FORM_COUNTER_SHARDS);
    expect(await storedItems(form.id)).toHaveLength(50);
    await expectCountersExact(form.id);
  });

  it('stays exact through spam moves, un-spam past the limit and deletes, without a reopen', async () => {
    const form = await newForm('pro', { maxSubmissions: 30 });
    expect(tally(await burst(form.key, 25, 'first'))).toEqual({ 200: 25 });
    const ids = (await storedItems(form.id)).map((item) => item.id as string);
    const mark = (target: string[], isSpam: boolean) =>
      bulk(form, 'PATCH', { target: { ids: target }, isSpam });

    // Out of the count and back in: the room left is 5 again, wherever the moves landed.
    expect((await mark(ids.slice(0, 10), true)).status).toBe(200);
    expect((await shardsOf(form.id)).counted).toBe(15);
    expect((await mark(ids.slice(0, 10), false)).status).toBe(200);
    expect(tally(await burst(form.key, 20, 'second'))).toEqual({ 200: 5, 423: 15 });
    expect((await shardsOf(form.id)).counted).toBe(30);

    // 12 to spam and a reopen: room for 12; 5 posts take some of it.
    expect((await mark(ids.slice(0, 12), true)).status).toBe(200);
    const reopened = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { status: 'active' },
    });
    expect(reopened.status, reopened.text).toBe(200);
    expect(tally(await burst(form.key, 5, 'third'))).toEqual({ 200: 5 });

    // Un-spam past the limit (35 counted), then 6 deletes: 29, so one post of ten lands.
    expect((await mark(ids.slice(0, 12), false)).status).toBe(200);
    expect((await shardsOf(form.id)).counted).toBe(35);
    expect((await bulk(form, 'DELETE', { target: { ids: ids.slice(12, 18) } })).status).toBe(200);
    expect((await shardsOf(form.id)).counted).toBe(29);
    expect(tally(await burst(form.key, 10, 'last'))).toEqual({ 200: 1, 423: 9 });
    expect((await shardsOf(form.id)).counted).toBe(30);
    await expectCountersExact(form.id);
  });

  it('raising and lowering maxSubmissions spreads the new limit over the counts', async () => {
    const form = await newForm('pro', { maxSubmissions: 10 });
    expect(tally(await burst(form.key, 10, 'a'))).toEqual({ 200: 10 });
    const raise = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { maxSubmissions: 16, status: 'active' },
    });
    expect(raise.status, raise.text).toBe(200);
    expect(tally(await burst(form.key, 12, 'b'))).toEqual({ 200: 6, 423: 6 });
    const lower = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { maxSubmissions: 12, status: 'active' },
    });
    expect(lower.status, lower.text).toBe(200);
    expect(tally(await burst(form.key, 3, 'c'))).toEqual({ 423: 3 });
    expect((await shardsOf(form.id)).counted).toBe(16);
  });

  it('maxSubmissions changed while posts keep arriving: the caps always sum to the limit in force, and the limit stays exact', async () => {
    const form = await newForm('pro', { maxSubmissions: 2000 });
    const posting = burst(form.key, 240, 'steady');
    for (const maxSubmissions of [1500, 1800, 1200, 1600, 240]) {
      // A change that keeps losing the race to posts is 409 (docs/forms.md#changing-a-form),
      // and one that outlasts its function's timeout under the posts' load is 503 `timeout`
      // with Retry-After: both sent again, as a client would. Anything else fails here.
      let status = 0;
      for (let attempt = 0; attempt < 8 && status !== 200; attempt++) {
        const changed = await api('PATCH', `/v1/forms/${form.id}`, {
          key: form.apiKey,
          body: { maxSubmissions },
          allowServerError: true,
        });
        status = changed.status;
        const again = status === 409 || (status === 503 && changed.body.error === 'timeout');
        if (status !== 200 && !again) throw new Error(`PATCH answered ${status}: ${changed.text}`);
      }
      expect(status, `maxSubmissions ${maxSubmissions} saved`).toBe(200);
    }
    const posted = tally(await posting);
    const read = await shardsOf(form.id);
    expect(read.counted).toBe(posted[200]);
    expect(read.counted).toBeLessThanOrEqual(240);
    expect([...read.shards.values()].reduce((sum, s) => sum + (s.cap ?? 0), 0)).toBe(240);
    // Then exactly the room left: never past 240.
    const more = tally(await burst(form.key, 250 - read.counted, 'after'));
    expect(more[200] ?? 0).toBe(240 - read.counted);
    expect((await shardsOf(form.id)).counted).toBe(240);
    await expectCountersExact(form.id);
  });

  it('a form whose shards are missing (stored before them) gets them on its next post', async () => {
    const form = await newForm('pro', { maxSubmissions: 3 });
    const { documents } = await localStore();
    for (let k = 0; k < FORM_COUNTER_SHARDS; k++) {
      await documents.send(
        new DeleteCommand({ TableName: stack().tableName, Key: formCounterKey(form.id, k) }),
      );
    }
    expect((await shardsOf(form.id)).shards.size).toBe(0);
    expect(tally(await burst(form.key, 5, 'late'))).toEqual({ 200: 3, 423: 2 });
    const read = await shardsOf(form.id);
    expect(read.shards.size).toBe(FORM_COUNTER_SHARDS);
    expect(read.counted).toBe(3);
  });
});

describe('the form list', () => {
  it('reads the list fields from the index (not whole forms) and counts from the shards', async () => {
    const form = await newForm('pro', {
      fields: [{ id: 'email', type: 'email', label: 'A long label '.repeat(10) }],
      completionMessage: 'Thank you! '.repeat(100),
    });
    expect(tally(await burst(form.key, 3, 'listed'))).toEqual({ 200: 3 });
    const { documents } = await localStore();
    const page = await documents.send(
      new QueryCommand({
        TableName: stack().tableName,
        IndexName: INDEXES.byParent.name,
        KeyConditionExpression: 'parentPk = :parent',
        ExpressionAttributeValues: { ':parent': `TEAM#${form.teamId}#FORMS` },
      }),
    );
    const indexed = page.Items?.[0] ?? {};
    expect(indexed).toMatchObject({ id: form.id, key: form.key });
    expect(indexed).not.toHaveProperty('fields');
    expect(indexed).not.toHaveProperty('completionMessage');
    const list = await api('GET', '/v1/forms', { key: form.apiKey });
    expect(list.body.forms).toEqual([
      expect.objectContaining({ id: form.id, name: 'Submit test', submissionCount: 3 }),
    ]);
  });
});

describe('monthly usage over shards', () => {
  it('an allowance lowered below what is counted refuses every post, though shards have room', async () => {
    const form = await newForm('pro');
    const allow = (n: number) =>
      admin('team', 'allowance', '--team', form.teamId, '--submissions', String(n));
    expect((await allow(100)).code).toBe(0);
    expect(tally(await burst(form.key, 60, 'before'))).toEqual({ 200: 60 });
    // 60 counted over 12 quiet shards; 50's caps are spread over 6 shards of 8.
    expect((await allow(50)).code).toBe(0);
    expect(tally(await burst(form.key, 10, 'after'))).toEqual({ 402: 10 });
    const { usage } = await localStore();
    expect((await usage.readUsage(form.teamId, month(), { consistent: true })).total).toBe(60);
  });

  it('allowance 100 across 20 forms of one team: 200 concurrent posts store exactly 100, and exactly the last 6 warn', async () => {
    const team = await newTeam('pro');
    const set = await admin('team', 'allowance', '--team', team.teamId, '--submissions', '100');
    expect(set.code, set.stderr).toBe(0);
    const forms: TestForm[] = [];
    for (let i = 0; i < 20; i++) {
      const created = await api('POST', '/v1/forms', {
        key: team.apiKey,
        body: { name: `Form ${i}`, type: 'custom' },
      });
      expect(created.status).toBe(201);
      forms.push({
        id: created.body.id as string,
        key: created.body.key as string,
        teamId: team.teamId,
        apiKey: team.apiKey,
      });
    }
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        submit(forms[i % 20]!.key, { json: { visitor: `team ${i}` }, from: freshVisitor() }),
      ),
    );
    expect(tally(responses)).toEqual({ 200: 100, 402: 100 });
    // 95 % of 100 is 95: the posts counted 95th to 100th warn, whichever they were.
    expect(responses.filter((r) => r.body?.warning === 'near_limit')).toHaveLength(6);
    const { usage } = await localStore();
    const read = await usage.readUsage(team.teamId, month(), { consistent: true });
    expect(read.total).toBe(100);
    expect(read.near).toBe(6);
    expect(read.quiet.filter((count) => count > 0).length).toBeGreaterThan(1);
    let stored = 0;
    for (const form of forms) stored += (await storedItems(form.id)).length;
    expect(stored).toBe(100);
  });
});
