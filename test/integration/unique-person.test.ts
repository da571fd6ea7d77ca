import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { mailboxOf } from '#domain/mailbox.ts';
import { personPlaceHash } from '#domain/unique-person.ts';
import { api, stack } from '#test/support/api.ts';
import {
  connectWebhook,
  deliveriesOf,
  emailsTo,
  newReceiver,
  untilEmailQueueDrained,
  untilQueueDrained,
} from '#test/support/delivery.ts';
import { newForm, storedItems, type TestForm } from '#test/support/forms.ts';
import { bulk, expectCountersExact } from '#test/support/inbox.ts';
import { eventually } from '#test/support/poll.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';
import { TEST_RETENTION_DAY_SECONDS, TEST_RETENTION_SWEEP_SECONDS } from './stack-settings.ts';

/**
 * One answer per person without confirmation (docs/forms.md#one-answer-per-person):
 * a form's `unique` names its email field; a second post whose address
 * reaches the same mailbox (case, +tags, Gmail's dots folded) is kept in spam
 * as `duplicate_person` and goes nowhere; the place is one item put in the
 * storing transaction, so two posts at once leave one answer; erasing or
 * deleting the answer frees it.
 */

// Deliveries share the run's stream and queues: waits may be long under the full suite.
vi.setConfig({ testTimeout: 120_000 });

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

const unique = () => crypto.randomUUID().slice(0, 8);

const RSVP_FIELDS = [
  { id: 'name', type: 'text', label: 'Name', required: true },
  { id: 'email', type: 'email', label: 'Email', required: true },
  { id: 'attending', type: 'radio', label: 'Attending', options: ['Yes', 'No'] },
];

/** An RSVP form taking one answer per email address. */
const rsvpForm = (plan: 'free' | 'pro' = 'free', settings: Record<string, unknown> = {}) =>
  newForm(plan, { fields: RSVP_FIELDS, unique: { field: 'email' }, ...settings });

type Stored = { id: string; isSpam: boolean; spamReason?: string };

/** Posts an RSVP from a fresh visitor; answers the stored submission as the API shows it. */
async function rsvp(form: TestForm, email: string, from = freshVisitor()): Promise<Stored> {
  const post = await submit(form.key, { json: { name: 'Ada', email, attending: 'Yes' }, from });
  expect(post.status, post.text).toBe(200);
  expect(post.body).toMatchObject({ ok: true });
  return read(form, post.body?.submissionId as string);
}

async function read(form: TestForm, id: string): Promise<Stored> {
  const one = await api('GET', `/v1/forms/${form.id}/submissions/${id}`, { key: form.apiKey });
  expect(one.status, one.text).toBe(200);
  return one.body as Stored;
}

/** The place `email` holds on the form, straight from the table (its key as the stack makes it). */
async function placeOf(form: TestForm, email: string) {
  const hash = personPlaceHash(inject('keyedHashSecret'), form.teamId, mailboxOf(email));
  const { documents } = await localStore();
  const got = await documents.send(
    new GetCommand({
      TableName: stack().tableName,
      Key: { pk: `PERSON#${form.id}#${hash}`, sk: 'PERSON' },
      ConsistentRead: true,
    }),
  );
  return got.Item;
}

/** The form's submissions that hold a place (their stored `personHash`). */
const holders = async (form: TestForm) =>
  (await storedItems(form.id)).filter((item) => typeof item.personHash === 'string');

async function submissionCount(form: TestForm): Promise<number> {
  const got = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
  const forms = await api('GET', '/v1/forms', { key: form.apiKey });
  expect(got.status).toBe(200);
  return (forms.body.forms as { id: string; submissionCount: number }[]).find(
    (each) => each.id === form.id,
  )!.submissionCount;
}

describe('the unique setting', () => {
  it('is null by default, set and cleared by PATCH on Free, and refused at unique.field for a field that is not a required email field', async () => {
    const form = await newForm('free', { fields: RSVP_FIELDS });
    const got = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(got.body.unique).toBeNull();
    const patch = (body: unknown) =>
      api('PATCH', `/v1/forms/${form.id}`, { key: form.apiKey, body });
    const set = await patch({ unique: { field: 'email' } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.unique).toEqual({ field: 'email' });
    expect((await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey })).body.unique).toEqual({
      field: 'email',
    });
    for (const body of [
      { unique: { field: 'name' } },
      { unique: { field: 'missing' } },
      { fields: RSVP_FIELDS.filter((field) => field.id !== 'email') },
    ]) {
      const refused = await patch(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error).toBe('invalid_request');
      expect((refused.body.issues as { path: string }[]).map((issue) => issue.path)).toEqual([
        'unique.field',
      ]);
    }
    const cleared = await patch({ unique: null });
    expect(cleared.body.unique).toBeNull();
  });
});

describe('a second answer from the same person', () => {
  it('by another spelling (case, +tag, Gmail dots) is kept in spam as duplicate_person, with no notification, webhook or auto-reply', async () => {
    const hooks = await newReceiver();
    receivers.push(hooks);
    const owner = `owner-${unique()}@example.com`;
    const form = await rsvpForm('pro', {
      notifyEmail: owner,
      autoreplyEnabled: true,
      autoreplySubject: 'See you',
      autoreplyBody: 'Thanks for answering.',
    });
    await connectWebhook(form, hooks.url);
    const local = `ada.lovelace.${unique()}`;
    const first = await rsvp(form, `${local}@gmail.com`);
    expect(first.isSpam).toBe(false);
    const spellings = [
      `${local.toUpperCase()}@GMAIL.COM`,
      `${local}+party@gmail.com`,
      `${local.replaceAll('.', '')}@googlemail.com`,
    ];
    const seconds: Stored[] = [];
    for (const spelling of spellings) seconds.push(await rsvp(form, spelling));
    for (const second of seconds) {
      expect(second).toMatchObject({ isSpam: true, spamReason: 'duplicate_person' });
    }
    // Another person, after them: once their webhook is in, the duplicates' records were fanned
    // out before it (one form, one stream shard, in order).
    const grace = await rsvp(form, `grace.${unique()}@example.com`);
    expect(grace.isSpam).toBe(false);
    await hooks.waitFor(2);
    await untilQueueDrained('webhooks');
    await untilEmailQueueDrained();
    const hooked = hooks.received.map((hook) => JSON.parse(hook.body).data.submissionId);
    expect(hooked.sort()).toEqual([first.id, grace.id].sort());
    const logged = (await deliveriesOf(form)).map((delivery) => delivery.submissionId);
    expect(logged.sort()).toEqual([first.id, grace.id].sort());
    expect(
      await emailsTo(owner),
      'one notification per answer, none for the duplicates',
    ).toHaveLength(2);
    for (const spelling of spellings) expect(await emailsTo(spelling)).toHaveLength(0);
    expect(await emailsTo(`${local}@gmail.com`), 'the first answer’s auto-reply').toHaveLength(1);

    expect(await submissionCount(form)).toBe(2);
    const spam = await api(
      'GET',
      `/v1/forms/${form.id}/submissions?filter=spam&reason=duplicate_person`,
      {
        key: form.apiKey,
      },
    );
    expect(spam.status, spam.text).toBe(200);
    expect(spam.body.total).toBe(3);
    expect(spam.body.reasonCounts).toMatchObject({ duplicate_person: 3 });
    await expectCountersExact(form.id);
  });

  it('two identical posts at once leave exactly one answer and one duplicate_person, each time', async () => {
    const form = await rsvpForm();
    const emails = Array.from({ length: 5 }, () => `twin-${unique()}@example.com`);
    const pairs = await Promise.all(
      emails.map((email) => {
        const from = freshVisitor();
        return Promise.all([rsvp(form, email, from), rsvp(form, email, from)]);
      }),
    );
    for (const [i, pair] of pairs.entries()) {
      expect(pair.map((one) => one.isSpam).sort()).toEqual([false, true]);
      expect(pair.find((one) => one.isSpam)?.spamReason).toBe('duplicate_person');
      const answer = pair.find((one) => !one.isSpam)!;
      expect((await placeOf(form, emails[i]!))?.submissionId).toBe(answer.id);
    }
    expect(await submissionCount(form)).toBe(5);
    expect(await holders(form)).toHaveLength(5);
    await expectCountersExact(form.id);
  });
});

describe('the place an answer holds', () => {
  it('is one item keyed by a hash, never the address, naming its submission; a form without unique writes none', async () => {
    const email = `place-${unique()}@example.com`;
    const form = await rsvpForm();
    const first = await rsvp(form, email);
    const held = await placeOf(form, email);
    expect(held).toMatchObject({ entity: 'personPlace', submissionId: first.id });
    expect(String(held!.pk)).toMatch(new RegExp(`^PERSON#${form.id}#[0-9a-f]{32}$`));
    expect(JSON.stringify(held)).not.toContain('place-');
    expect((await holders(form)).map((item) => item.id)).toEqual([first.id]);
    // The API never shows the hash.
    expect(Object.keys(await read(form, first.id))).not.toContain('personHash');

    const plain = await newForm('free', { fields: RSVP_FIELDS });
    const one = await rsvp(plain, email);
    const two = await rsvp(plain, email);
    expect([one.isSpam, two.isSpam]).toEqual([false, false]);
    expect(await placeOf(plain, email)).toBeUndefined();
    expect(await holders(plain)).toHaveLength(0);
  });

  it('goes with its form when the form is deleted', async () => {
    const email = `gone-${unique()}@example.com`;
    const form = await rsvpForm();
    await rsvp(form, email);
    expect(await placeOf(form, email)).toBeDefined();
    const deleted = await api('DELETE', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(deleted.status, deleted.text).toBe(200);
    // The purge of a deleted form runs on the table stream.
    const left = await eventually(
      () => placeOf(form, email),
      (place) => place === undefined,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(left).toBeUndefined();
  });

  it('is freed by erasing the person: a new post is then an answer', async () => {
    const email = `erase-${unique()}@example.com`;
    const form = await rsvpForm();
    await rsvp(form, email);
    expect((await rsvp(form, email)).spamReason).toBe('duplicate_person');
    const erased = await api('POST', '/v1/privacy/erasures', {
      key: form.apiKey,
      body: { email: email.toUpperCase() },
    });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.count).toBe(2);
    expect(await placeOf(form, email)).toBeUndefined();
    const again = await rsvp(form, email);
    expect(again.isSpam).toBe(false);
    expect((await placeOf(form, email))?.submissionId).toBe(again.id);
  });

  it('is left as it is when another submission holds it (a deletion frees only its own place)', async () => {
    const email = `other-${unique()}@example.com`;
    const form = await rsvpForm();
    const first = await rsvp(form, email);
    const place = await placeOf(form, email);
    // As if another submission held it: the first one's deletion must go through and leave it.
    const { documents } = await localStore();
    await documents.send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { pk: place!.pk, sk: place!.sk },
        UpdateExpression: 'SET submissionId = :other',
        ExpressionAttributeValues: { ':other': 'another-submission' },
      }),
    );
    const deleted = await bulk(form, 'DELETE', { target: { ids: [first.id] } });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ count: 1 });
    expect((await placeOf(form, email))?.submissionId).toBe('another-submission');
    await expectCountersExact(form.id);
  });

  it('is freed by the form’s retention deleting its answer', async () => {
    const email = `kept-${unique()}@example.com`;
    const form = await rsvpForm('free', { retentionDays: 1 });
    const first = await rsvp(form, email);
    expect((await placeOf(form, email))?.submissionId).toBe(first.id);
    // One (test) day, then the form's sweep: the counted bulk path, the place with it.
    const sweptWithin = (TEST_RETENTION_DAY_SECONDS + TEST_RETENTION_SWEEP_SECONDS + 10) * 1000;
    const left = await eventually(
      () => placeOf(form, email),
      (place) => place === undefined,
      { timeoutMs: sweptWithin, intervalMs: 250 },
    );
    expect(left, 'the place outlived its swept answer').toBeUndefined();
    expect(await holders(form)).toEqual([]);
    expect((await rsvp(form, email)).isSpam).toBe(false);
  });

  it('is freed by deleting its answer, not by deleting a duplicate; moving the answer to spam and back keeps it', async () => {
    const email = `delete-${unique()}@example.com`;
    const form = await rsvpForm();
    const first = await rsvp(form, email);
    const duplicate = await rsvp(form, email);
    expect(duplicate.spamReason).toBe('duplicate_person');

    const deleteIds = async (ids: string[]) => {
      const deleted = await bulk(form, 'DELETE', { target: { ids } });
      expect(deleted.status, deleted.text).toBe(200);
    };
    await deleteIds([duplicate.id]);
    expect((await placeOf(form, email))?.submissionId).toBe(first.id);
    expect((await rsvp(form, email)).spamReason, 'still held by the first').toBe(
      'duplicate_person',
    );

    const moved = await bulk(form, 'PATCH', { target: { ids: [first.id] }, isSpam: true });
    expect(moved.status, moved.text).toBe(200);
    expect((await rsvp(form, email)).spamReason, 'held while the answer exists').toBe(
      'duplicate_person',
    );
    await bulk(form, 'PATCH', { target: { ids: [first.id] }, isSpam: false });

    await deleteIds([first.id]);
    expect(await placeOf(form, email)).toBeUndefined();
    const next = await rsvp(form, email);
    expect(next.isSpam).toBe(false);
    expect((await placeOf(form, email))?.submissionId).toBe(next.id);
    await expectCountersExact(form.id);
  });
});
