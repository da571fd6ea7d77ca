import { createHash } from 'node:crypto';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { emailHash } from '#domain/email-index.ts';
import { admin } from '#test/support/admin.ts';
import { api, stack } from '#test/support/api.ts';
import {
  connectWebhook,
  deliveriesOf,
  deliveryWhen,
  newReceiver,
  untilQueueDrained,
} from '#test/support/delivery.ts';
import { newForm, storedItems, type TestForm } from '#test/support/forms.ts';
import { eventually } from '#test/support/poll.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';
import { TEST_RETENTION_DAY_SECONDS } from './stack-settings.ts';

/**
 * What an erase by email (docs/privacy.md#erase-by-email) must not leave
 * behind: records kept beside a submission that name its sender.
 */

// Stream and queue work is shared with the whole suite: waits may be long under its load.
vi.setConfig({ testTimeout: 120_000 });

const unique = () => crypto.randomUUID().slice(0, 8);

const erase = (form: TestForm, email: string) =>
  api<{ count: number }>('POST', '/v1/privacy/erasures', {
    key: form.apiKey,
    body: { email },
  });

describe('the Idempotency-Key record of an erased submission', () => {
  it('no longer holds the redirect Location naming the address; a retry stores nothing and redirects nowhere', async () => {
    const form = await newForm('pro');
    const ada = `ada-${unique()}@example.com`;
    const key = crypto.randomUUID();
    const site = 'https://www.example.com';
    const answers = {
      email: ada,
      message: 'keep me posted',
      // The site's own thank-you page, told who signed up: the address is in the query.
      _redirect: `${site}/thanks?email=${encodeURIComponent(ada)}`,
    };
    const send = () =>
      submit(form.key, {
        json: answers,
        from: freshVisitor(),
        headers: { 'idempotency-key': key, accept: 'text/html', origin: site },
      });
    const first = await send();
    expect([first.status, first.headers.location]).toEqual([303, answers._redirect]);

    const { documents } = await localStore();
    const record = async () =>
      (
        await documents.send(
          new GetCommand({
            TableName: stack().tableName,
            Key: {
              pk: `FORM#${form.id}`,
              sk: `IDEM#${createHash('sha256').update(key).digest('hex')}`,
            },
            ConsistentRead: true,
          }),
        )
      ).Item;
    expect((await record())?.location).toBe(answers._redirect);

    const erased = await erase(form, ada);
    expect(erased.body).toMatchObject({ count: 1 });
    const kept = JSON.stringify((await record()) ?? {});
    expect(kept).not.toContain(encodeURIComponent(ada));
    expect(kept.toLowerCase()).not.toContain(ada.split('@')[0]);

    // A retry within the window stores nothing again, and its answer names no address.
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.headers.location).toBeUndefined();
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.text).not.toContain(ada.split('@')[0]);
    expect(await storedItems(form.id)).toHaveLength(0);
  });
});

describe("a waitlist's signup mark (docs/privacy.md#the-signup-mark)", () => {
  const today = () => new Date().toISOString().slice(0, 10);

  async function waitlist(): Promise<TestForm> {
    return newForm('pro', {}, { name: 'Waitlist', type: 'waitlist' });
  }

  async function signUp(form: TestForm, email: string, more: Record<string, string> = {}) {
    const response = await submit(form.key, { json: { email, ...more }, from: freshVisitor() });
    expect(response.status, response.text).toBe(200);
    return response.body?.submissionId as string;
  }

  const counts = async (form: TestForm) => {
    const response = await api<{ byType: { signups: number; uniqueEmails: number } }>(
      'GET',
      `/v1/forms/${form.id}/summary?from=${today()}&to=${today()}`,
      { key: form.apiKey },
    );
    expect(response.status, response.text).toBe(200);
    const { signups, uniqueEmails } = response.body.byType;
    return { signups, uniqueEmails };
  };

  const countsReach = (form: TestForm, signups: number, uniqueEmails: number) =>
    eventually(
      () => counts(form),
      (now) => now.signups === signups && now.uniqueEmails === uniqueEmails,
      { timeoutMs: 60_000, intervalMs: 150 },
    );

  /** The form's signup marks: `[sort key, submissionId]`. */
  async function marks(form: TestForm): Promise<string[][]> {
    const { documents } = await localStore();
    const { Items = [] } = await documents.send(
      new QueryCommand({
        TableName: stack().tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :seen)',
        ExpressionAttributeValues: { ':pk': `FORM#${form.id}`, ':seen': 'SEEN#' },
        ConsistentRead: true,
      }),
    );
    return Items.map((item) => [String(item.sk), String(item.submissionId)]);
  }

  const marksReach = (form: TestForm, expected: string[][]) =>
    eventually(
      () => marks(form),
      (now) => JSON.stringify(now) === JSON.stringify(expected),
      { timeoutMs: 60_000, intervalMs: 150 },
    );

  it('is keyed like the email index, goes with an erase, and a signup after the erase counts as a new one', async () => {
    const form = await waitlist();
    const ada = `ada-${unique()}@example.com`;
    const first = await signUp(form, ada);
    expect(await countsReach(form, 1, 1)).toEqual({ signups: 1, uniqueEmails: 1 });
    const keyed = `SEEN#${emailHash(process.env.KEYED_HASH_SECRET!, form.teamId, ada)}`;
    // Not an unkeyed SHA-256 of the address, which anyone can compute from a guess.
    const unkeyed = `SEEN#${createHash('sha256').update(ada).digest('hex')}`;
    expect(await marks(form)).not.toContainEqual([unkeyed, first]);
    expect(await marks(form)).toEqual([[keyed, first]]);

    const erased = await erase(form, ada);
    expect(erased.body).toMatchObject({ count: 1 });
    expect(await marksReach(form, [])).toEqual([]);

    // An erased signup stays counted on its day (as deletions do); the new one counts anew.
    // Other words: the same answers within a day would be spam as a duplicate (its mark is
    // not the erase's to remove: docs/privacy.md#what-erase-does-not-reach).
    const again = await signUp(form, ada, { note: 'me again' });
    expect(await countsReach(form, 2, 2)).toEqual({ signups: 2, uniqueEmails: 2 });
    expect(await marksReach(form, [[keyed, again]])).toEqual([[keyed, again]]);
  });

  it("goes when its submission passes the form's retention", async () => {
    const form = await waitlist();
    const ada = `ada-${unique()}@example.com`;
    const id = await signUp(form, ada);
    expect(await countsReach(form, 1, 1)).toEqual({ signups: 1, uniqueEmails: 1 });
    expect((await marks(form)).map(([, submissionId]) => submissionId)).toEqual([id]);
    // Past one (test) day, then a retention of one day: the applier deletes it.
    await eventually(
      async () => Date.now() - Date.parse((await storedItems(form.id))[0]!.createdAt as string),
      (age) => age > TEST_RETENTION_DAY_SECONDS * 1000 + 200,
      { timeoutMs: (TEST_RETENTION_DAY_SECONDS + 5) * 1000, intervalMs: 200 },
    );
    const patched = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { retentionDays: 1 },
    });
    expect(patched.status, patched.text).toBe(200);
    const left = await eventually(
      () => storedItems(form.id),
      (items) => items.length === 0,
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(left).toEqual([]);
    expect(await marksReach(form, [])).toEqual([]);
  });

  it('privacy reindex moves a mark an older version keyed without the secret; the erase then takes it along', async () => {
    const form = await waitlist();
    const ada = `ada-${unique()}@example.com`;
    const id = await signUp(form, ada);
    await countsReach(form, 1, 1);
    const keyed = `SEEN#${emailHash(process.env.KEYED_HASH_SECRET!, form.teamId, ada)}`;
    const unkeyed = `SEEN#${createHash('sha256').update(ada).digest('hex')}`;
    // As an older version left it: an unkeyed mark, and no hash on the submission.
    const { documents } = await localStore();
    const TableName = stack().tableName;
    const pk = `FORM#${form.id}`;
    await documents.send(new DeleteCommand({ TableName, Key: { pk, sk: keyed } }));
    await documents.send(
      new PutCommand({
        TableName,
        Item: { pk, sk: unkeyed, entity: 'signupMark', submissionId: id },
      }),
    );
    await documents.send(
      new UpdateCommand({
        TableName,
        Key: { pk, sk: `SUB#${id}` },
        UpdateExpression: 'REMOVE signupHash',
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
    expect(await marks(form)).toEqual([[unkeyed, id]]);

    const run = await admin('privacy', 'reindex', '--team', form.teamId);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).marks).toEqual({ rekeyed: 1, removed: 0 });
    expect(await marks(form)).toEqual([[keyed, id]]);

    expect((await erase(form, ada)).body).toMatchObject({ count: 1 });
    expect(await marksReach(form, [])).toEqual([]);
  });
});

describe('the webhook delivery of an erased submission (docs/privacy.md#erase-by-email)', () => {
  const receivers: WebhookReceiver[] = [];
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  async function retryingDelivery() {
    const receiver = await newReceiver();
    receivers.push(receiver);
    // The first attempt fails in a way worth retrying: the delivery is `retrying`.
    receiver.script([{ status: 500 }], { status: 204 });
    const form = await newForm('pro');
    await connectWebhook(form, receiver.url);
    const ada = `ada-${unique()}@example.com`;
    const response = await submit(form.key, {
      json: { email: ada, message: 'retry me' },
      from: freshVisitor(),
    });
    expect(response.status, response.text).toBe(200);
    const id = response.body?.submissionId as string;
    expect((await deliveryWhen(form, id, 'retrying'))?.status).toBe('retrying');
    return { receiver, form, ada, id };
  }

  const listed = async (form: TestForm) => (await deliveriesOf(form)).map((d) => d.submissionId);

  it('a retry coming after the erase writes no log entry back', async () => {
    const { receiver, form, ada, id } = await retryingDelivery();
    expect((await erase(form, ada)).body).toMatchObject({ count: 1 });
    expect(await listed(form)).not.toContain(id);
    // The retry's message comes round (1 s later on the test stack) and ends: the queue drains.
    await untilQueueDrained('webhooks');
    expect(await listed(form)).not.toContain(id);
    expect(receiver.received.length).toBeLessThanOrEqual(2);
  });

  it('an attempt in flight during the erase writes no log entry back (held, erased, released)', async () => {
    const { receiver, form, ada, id } = await retryingDelivery();
    let release: (reply: { status: number }) => void = () => {};
    receiver.script([{ until: new Promise((resolve) => (release = resolve)) }], { status: 204 });
    // The retry reaches the receiver and waits there: its worker read the submission before.
    await receiver.waitFor(2);
    expect((await erase(form, ada)).body).toMatchObject({ count: 1 });
    release({ status: 500 });
    await untilQueueDrained('webhooks');
    expect(await listed(form)).not.toContain(id);
    expect(receiver.received).toHaveLength(2);
  });
});
