import { afterAll, describe, expect, it, vi } from 'vitest';
import { api } from '#test/support/api.ts';
import { connectWebhook, emailsTo, eventually, newReceiver } from '#test/support/delivery.ts';
import { newForm, storedItems, type TestForm } from '#test/support/forms.ts';
import { expectCountersExact, listSubmissions } from '#test/support/inbox.ts';
import { eventually as poll } from '#test/support/poll.ts';
import { freshVisitor, type SubmitResponse, submit } from '#test/support/submit.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';
import { TEST_IDEMPOTENCY_WINDOW_SECONDS } from './stack-settings.ts';

// Deliveries share the run's stream and queues: waits may be long under the full suite.
vi.setConfig({ testTimeout: 120_000 });

// Receivers close when the file is done: the tests run at once, so one test's end must not
// close another's receiver.
const receivers: WebhookReceiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

const newKey = () => crypto.randomUUID();
const unique = () => crypto.randomUUID().slice(0, 8);
const replayed = (response: SubmitResponse) => response.headers['idempotent-replayed'];

function keyed(form: TestForm, key: string, json: unknown, headers: Record<string, string> = {}) {
  return submit(form.key, {
    json,
    from: freshVisitor(),
    headers: { 'idempotency-key': key, ...headers },
  });
}

async function teamUsage(form: TestForm): Promise<number> {
  const team = await api<{ usage: { submissions: number } }>('GET', '/v1/team', {
    key: form.apiKey,
  });
  return team.body.usage.submissions;
}

// At once: the last test waits out the test stack's window, the others need not wait for it.
describe.concurrent('Idempotency-Key on POST /s/{key} (docs/submit.md#idempotency-key)', () => {
  it('20 identical posts at once under one key store one submission, and all 20 answers carry its id', async () => {
    const form = await newForm('pro');
    const key = newKey();
    const answers = { name: 'Ada', message: `Twenty at once ${unique()}` };
    const from = freshVisitor();
    const posts = await Promise.all(
      Array.from({ length: 20 }, () =>
        submit(form.key, { json: answers, from, headers: { 'idempotency-key': key } }),
      ),
    );
    expect(posts.map((post) => post.status)).toEqual(Array(20).fill(200));
    const ids = new Set(posts.map((post) => post.body?.submissionId));
    expect(ids.size, JSON.stringify(posts.map((post) => post.body))).toBe(1);
    // One post stored; every other one answered its answer again.
    expect(posts.filter((post) => replayed(post) === undefined)).toHaveLength(1);
    expect(posts.filter((post) => replayed(post) === 'true')).toHaveLength(19);

    const items = await storedItems(form.id);
    expect(items.map((item) => item.id)).toEqual([...ids]);
    expect(items[0]!.isSpam).toBe(false);
    await expectCountersExact(form.id);
    expect(await teamUsage(form)).toBe(1);

    // A later retry replays the same id, and still stores and counts nothing.
    const later = await keyed(form, key, answers);
    expect([later.status, later.body, replayed(later)]).toEqual([
      200,
      { ok: true, submissionId: [...ids][0] },
      'true',
    ]);
    expect(await storedItems(form.id)).toHaveLength(1);
    expect((await listSubmissions(form)).body.total).toBe(1);
    expect(await teamUsage(form)).toBe(1);
  });

  it('the same key with another body is 422 idempotency_key_reused, and stores nothing', async () => {
    const form = await newForm('free');
    const key = newKey();
    const first = await keyed(form, key, { message: 'First' });
    expect(first.status).toBe(200);
    const other = await keyed(form, key, { message: 'Second' });
    expect([other.status, other.body?.error]).toEqual([422, 'idempotency_key_reused']);
    expect(other.body?.message).toMatch(/Idempotency-Key was used for a different post/);
    // The same answers sent urlencoded are the same post: answers compare, not encodings.
    const sameAsForm = await submit(form.key, {
      form: { message: 'First' },
      from: freshVisitor(),
      headers: { 'idempotency-key': key },
    });
    expect([sameAsForm.status, sameAsForm.body?.submissionId, replayed(sameAsForm)]).toEqual([
      200,
      first.body?.submissionId,
      'true',
    ]);
    expect(await storedItems(form.id)).toHaveLength(1);
  });

  it('a 303 redirect is replayed with its Location, even to a retry that asks for JSON', async () => {
    const form = await newForm('pro', {
      completionMode: 'redirect',
      redirectUrl: 'https://www.example.com/thanks',
    });
    const key = newKey();
    const answers = { email: 'ada@example.com', message: 'Redirect me' };
    const first = await keyed(form, key, answers, { accept: 'text/html' });
    expect([first.status, first.headers.location, replayed(first)]).toEqual([
      303,
      'https://www.example.com/thanks',
      undefined,
    ]);
    for (const accept of ['text/html', 'application/json']) {
      const retry = await keyed(form, key, answers, { accept });
      expect([retry.status, retry.headers.location, replayed(retry)], accept).toEqual([
        303,
        'https://www.example.com/thanks',
        'true',
      ]);
    }
    expect(await storedItems(form.id)).toHaveLength(1);
  });

  it('a thank-you page is replayed as a page', async () => {
    const form = await newForm('pro', {
      completionMode: 'message',
      completionTitle: 'Got it',
      completionMessage: 'We read every message.',
    });
    const key = newKey();
    const first = await keyed(form, key, { message: 'A page' }, { accept: 'text/html' });
    const retry = await keyed(form, key, { message: 'A page' }, { accept: 'text/html' });
    expect([first.status, retry.status, replayed(retry)]).toEqual([200, 200, 'true']);
    expect(retry.text).toContain('We read every message.');
    expect(await storedItems(form.id)).toHaveLength(1);
  });

  it('a replay sends no second notification email and no second webhook', async () => {
    const hooks = await newReceiver();
    receivers.push(hooks);
    const owner = `owner-${unique()}@example.com`;
    const form = await newForm('pro', { notifyEmail: owner });
    await connectWebhook(form, hooks.url);
    const key = newKey();
    const answers = { message: `Announce me once ${unique()}` };
    const first = await keyed(form, key, answers);
    const retries = await Promise.all([1, 2, 3].map(() => keyed(form, key, answers)));
    expect(retries.map(replayed)).toEqual(['true', 'true', 'true']);
    // A later post with its own key: once its email and webhook are in, the keyed post's
    // would be too (the stream delivers a form's posts in order).
    const later = await keyed(form, newKey(), { message: `The later post ${unique()}` });
    const emails = await eventually(
      () => emailsTo(owner),
      (list) => list.length >= 2,
    );
    const delivered = await hooks.waitFor(2);
    const emailTexts = emails.map((email) => `${email.body.text}`);
    expect(emailTexts.filter((text) => text.includes(answers.message))).toHaveLength(1);
    expect(delivered.map((hook) => JSON.parse(hook.body).data.submissionId).sort()).toEqual(
      [first.body?.submissionId, later.body?.submissionId].sort(),
    );
    expect(await emailsTo(owner)).toHaveLength(2);
  });

  it('keys are per form: one key on two forms stores on each', async () => {
    const one = await newForm('free');
    const two = await newForm('free');
    const key = newKey();
    const answers = { message: 'Same key, two forms' };
    const toOne = await keyed(one, key, answers);
    const toTwo = await keyed(two, key, answers);
    expect([toOne.status, toTwo.status, replayed(toTwo)]).toEqual([200, 200, undefined]);
    expect(toTwo.body?.submissionId).not.toBe(toOne.body?.submissionId);
    expect(await storedItems(one.id)).toHaveLength(1);
    expect(await storedItems(two.id)).toHaveLength(1);
  });

  it('a malformed key is 400 invalid_request naming the header, and stores nothing', async () => {
    const form = await newForm('free');
    for (const bad of [
      '',
      '   ',
      'a'.repeat(256),
      'has space',
      '"unterminated',
      '"a"b',
      'tab\tin',
    ]) {
      const post = await keyed(form, bad, { message: 'Bad key' });
      expect([post.status, post.body?.error], JSON.stringify(bad)).toEqual([
        400,
        'invalid_request',
      ]);
      expect(post.body?.message).toMatch(/Idempotency-Key must be 1 to 255 visible ASCII/);
    }
    expect(await storedItems(form.id)).toHaveLength(0);
    // The draft's quoted form and the bare key name the same key; 255 characters is allowed.
    const long = 'k'.repeat(255);
    const bare = await keyed(form, long, { message: 'Good key' });
    const quoted = await keyed(form, `"${long}"`, { message: 'Good key' });
    expect([bare.status, quoted.status, replayed(quoted)]).toEqual([200, 200, 'true']);
    expect(quoted.body?.submissionId).toBe(bare.body?.submissionId);
  });

  it('two Idempotency-Key headers are 400 invalid_request, whatever they hold, and store nothing', async () => {
    const form = await newForm('free');
    const key = newKey();
    for (const keys of [
      [key, newKey()],
      [key, key],
      [key, ''],
    ]) {
      const post = await submit(form.key, {
        json: { message: 'Two keys' },
        from: freshVisitor(),
        // Two header lines, as a client repeating the header sends them (not one joined value).
        headers: { 'idempotency-key': keys },
      });
      expect([post.status, post.body?.error], JSON.stringify(keys)).toEqual([
        400,
        'invalid_request',
      ]);
      expect(post.body?.message).toMatch(/sent once/);
    }
    expect(await storedItems(form.id)).toHaveLength(0);
  });

  it('after the window the key is free again: the same post stores anew', async () => {
    const form = await newForm('free');
    const key = newKey();
    const answers = { message: 'Again after the window' };
    const first = await keyed(form, key, answers);
    expect(first.status).toBe(200);
    const startedAt = Date.now();
    const again = await poll(
      () => keyed(form, key, answers),
      (post) => replayed(post) === undefined,
      { timeoutMs: (TEST_IDEMPOTENCY_WINDOW_SECONDS + 20) * 1000, intervalMs: 1000 },
    );
    expect(Date.now() - startedAt).toBeGreaterThan((TEST_IDEMPOTENCY_WINDOW_SECONDS - 3) * 1000);
    expect(again.status).toBe(200);
    expect(again.body?.submissionId).not.toBe(first.body?.submissionId);
    // Stored anew (another visitor: not a duplicate) under the key, which replays it now.
    expect(await storedItems(form.id)).toHaveLength(2);
    const retry = await keyed(form, key, answers);
    expect([retry.body?.submissionId, replayed(retry)]).toEqual([again.body?.submissionId, 'true']);
  });
});
