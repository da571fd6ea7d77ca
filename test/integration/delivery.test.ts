import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, stack } from '#test/support/api.ts';
import {
  connectWebhook,
  deliveriesOf,
  deliveryWhen,
  emailsTo,
  eventually,
  newReceiver,
  untilEmailQueueDrained,
  webhookOf,
} from '#test/support/delivery.ts';
import { newForm } from '#test/support/forms.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';
import { TEST_RECEIVER_TIMEOUT_MS, TEST_WEBHOOK_RETRY_DELAYS } from './stack-settings.ts';

// Deliveries share the run's stream and queues: waits may be long under the full suite.
vi.setConfig({ testTimeout: 120_000 });

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
async function receiver() {
  const started = await newReceiver();
  receivers.push(started);
  return started;
}

const unique = () => crypto.randomUUID().slice(0, 8);
const headersOf = (hook: { headers: Record<string, string | string[] | undefined> }) =>
  Object.fromEntries(Object.entries(hook.headers).map(([k, v]) => [k, String(v)]));
const payloadOf = (hook: { body: string }) => JSON.parse(hook.body);

describe('a stored submission is announced: webhook, notification, auto-reply', () => {
  it('one delivery that standardwebhooks and svix verify, the owner email and the auto-reply', async () => {
    const hooks = await receiver();
    const owner = `owner-${unique()}@example.com`;
    const visitor = `ada-${unique()}@example.com`;
    const form = await newForm('pro', {
      notifyEmail: owner,
      notifySubject: 'New {{form.name}}: {{field.name}} ({{submission.id}})',
      autoreplyEnabled: true,
      autoreplySubject: 'Thanks, {{field.name}}',
      autoreplyAnswerPlaceholders: true,
      autoreplyBody: 'Hello {{field.name}},\nwe have your message.',
      fields: [
        { id: 'name', type: 'text', label: 'Your name' },
        { id: 'email', type: 'email', label: 'Email' },
        { id: 'message', type: 'textarea', label: 'Message' },
      ],
    });
    const secret = await connectWebhook(form, hooks.url);
    const answers = { name: '<b>Ada</b>', email: visitor, message: 'Hi <script>alert(1)</script>' };
    const post = await submit(form.key, { json: answers, from: freshVisitor() });
    const submissionId = post.body?.submissionId as string;

    const [hook] = await hooks.waitFor(1);
    const headers = headersOf(hook!);
    expect(() => new StandardWebhook(secret).verify(hook!.body, headers)).not.toThrow();
    expect(() => new SvixWebhook(secret).verify(hook!.body, headers)).not.toThrow();
    const otherSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(() => new SvixWebhook(otherSecret).verify(hook!.body, headers)).toThrow();
    expect(headers).toMatchObject({
      'webhook-id': `msg_${submissionId}`,
      'content-type': 'application/json',
      'user-agent': 'service-webhooks/1',
    });
    const payload = payloadOf(hook!);
    expect(payload).toEqual({
      type: 'submission.created',
      timestamp: expect.stringMatching(/Z$/),
      data: {
        formId: form.id,
        submissionId,
        submittedAt: expect.stringMatching(/Z$/),
        test: false,
        spam: false,
        fields: answers,
      },
    });

    const [notification] = await eventually(
      () => emailsTo(owner),
      (list) => list.length > 0,
    );
    expect(notification).toMatchObject({
      subject: `New Submit test: <b>Ada</b> (${submissionId})`,
      replyTo: [visitor],
    });
    expect(notification!.body.html).toContain('Hi &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(notification!.body.html).not.toContain('<script>');
    expect(notification!.body.text).toContain('Your name: <b>Ada</b>');
    const [reply] = await eventually(
      () => emailsTo(visitor),
      (list) => list.length > 0,
    );
    expect(reply).toMatchObject({ subject: 'Thanks, <b>Ada</b>', replyTo: [owner] });
    expect(reply!.body.text).toContain('Hello <b>Ada</b>,\nwe have your message.');

    const [delivery] = await deliveriesOf(form);
    expect(delivery).toMatchObject({
      deliveryId: submissionId,
      webhookId: `msg_${submissionId}`,
      status: 'delivered',
      attempts: [{ number: 1, outcome: 'delivered', responseStatus: 204, error: null }],
    });
    expect(hooks.received).toHaveLength(1);
  });

  it('dropped posts announce nothing; spam is delivered with data.spam and never emailed', async () => {
    const hooks = await receiver();
    const owner = `owner-${unique()}@example.com`;
    const blocked = freshVisitor();
    const form = await newForm('pro', { notifyEmail: owner, blockedIps: [blocked] });
    await connectWebhook(form, hooks.url);
    const honeypot = await submit(form.key, { json: { a: 'x', _gotcha: 'bot' } });
    const blockedPost = await submit(form.key, { json: { a: 'y' }, from: blocked });
    expect([honeypot.body, blockedPost.body]).toEqual([{ ok: true }, { ok: true }]);
    const spam = await submit(form.key, {
      json: { message: 'http://a.example http://b.example http://c.example' },
      from: freshVisitor(),
    });
    const clean = await submit(form.key, { json: { message: 'hello' }, from: freshVisitor() });

    const hooksSeen = await hooks.waitFor(2);
    // Exactly these two: the dropped posts, sent first, announced nothing. In
    // either order: the fan-out handles a batch's records in parallel.
    expect(hooksSeen.map((h) => payloadOf(h).data)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ submissionId: spam.body?.submissionId, spam: true }),
        expect.objectContaining({ submissionId: clean.body?.submissionId, spam: false }),
      ]),
    );
    const mail = await eventually(
      () => emailsTo(owner),
      (list) => list.length > 0,
    );
    await untilEmailQueueDrained();
    expect((await emailsTo(owner)).map((m) => m.body.text?.includes('hello'))).toEqual([true]);
    expect(mail).toHaveLength(1);
    expect(hooks.received).toHaveLength(2);
  });

  it('a test submission is delivered with data.test and notified', async () => {
    const hooks = await receiver();
    const owner = `owner-${unique()}@example.com`;
    const form = await newForm('pro', { notifyEmail: owner });
    await connectWebhook(form, hooks.url);
    const sent = await api('POST', `/v1/forms/${form.id}/test-submissions`, { key: form.apiKey });
    const [hook] = await hooks.waitFor(1);
    expect(payloadOf(hook!).data).toMatchObject({
      submissionId: sent.body.submissionId,
      test: true,
      spam: false,
    });
    const [mail] = await eventually(
      () => emailsTo(owner),
      (list) => list.length > 0,
    );
    expect(mail!.body.text).toContain('test');
  });

  it('a Free team: the notification to the owner, no webhook, no auto-reply', async () => {
    const marker = unique();
    const form = await newForm('free', { fields: [{ id: 'email', type: 'email' }] });
    const visitor = `v-${marker}@example.com`;
    const post = await submit(form.key, { json: { email: visitor, note: marker } });
    expect(post.status).toBe(200);
    // Free teams of the test suite are owned by free@example.com (test/support/admin.ts).
    const mine = (list: { body: { text?: string } }[]) =>
      list.filter((m) => m.body.text?.includes(marker));
    const mail = await eventually(
      () => emailsTo('free@example.com'),
      (list) => mine(list).length > 0,
    );
    expect(mine(mail)).toHaveLength(1);
    expect(await emailsTo(visitor)).toEqual([]);
    expect(await deliveriesOf(form)).toEqual([]);
  });
});

describe('auto-replies cannot be aimed at one address again and again', () => {
  it('an address gets at most 3 auto-replies an hour, whatever posts name it', async () => {
    const owner = `owner-${unique()}@example.com`;
    const target = `target-${unique()}@example.com`;
    const form = await newForm('pro', {
      notifyEmail: owner,
      autoreplyEnabled: true,
      fields: [{ id: 'email', type: 'email' }],
    });
    for (let n = 1; n <= 5; n++) {
      const post = await submit(form.key, {
        json: { email: target, n: String(n) },
        from: freshVisitor(),
      });
      expect(post.status).toBe(200);
    }
    // Every post is notified to the owner; the target gets 3 auto-replies, not 5.
    await eventually(
      () => emailsTo(owner),
      (list) => list.length === 5,
    );
    await untilEmailQueueDrained();
    expect(await emailsTo(target)).toHaveLength(3);
  });

  it('+tags and letter case name one mailbox: 10 posts naming variants of it get 3 auto-replies, not 9', async () => {
    const owner = `owner-${unique()}@example.com`;
    const name = `victim${unique()}`;
    const variants = [
      `${name}+1@example.com`,
      `${name}+2@example.com`,
      `${name.toUpperCase()}@Example.com`,
      `${name}@example.com`,
      `${name}+news@EXAMPLE.COM`,
    ];
    const form = await newForm('pro', {
      notifyEmail: owner,
      autoreplyEnabled: true,
      fields: [{ id: 'email', type: 'email' }],
    });
    for (let n = 0; n < 10; n++) {
      const post = await submit(form.key, {
        json: { email: variants[n % variants.length], n: String(n) },
        from: freshVisitor(),
      });
      expect(post.status).toBe(200);
    }
    await eventually(
      () => emailsTo(owner),
      (list) => list.length === 10,
    );
    await untilEmailQueueDrained();
    const store = (await (await fetch(new URL('/store', stack().mailUrl))).json()) as {
      emails: { destination: { to: string[] } }[];
    };
    const replies = store.emails.filter((email) =>
      email.destination.to.some((to) => to.toLowerCase().startsWith(name)),
    );
    expect(replies).toHaveLength(3);
  });

  it('a form sends at most its autoreplyHourlyLimit auto-replies an hour, whoever they go to', async () => {
    const owner = `owner-${unique()}@example.com`;
    const form = await newForm('pro', {
      notifyEmail: owner,
      autoreplyEnabled: true,
      autoreplyHourlyLimit: 2,
      fields: [{ id: 'email', type: 'email' }],
    });
    const visitors = Array.from({ length: 4 }, () => `visitor-${unique()}@example.com`);
    for (const email of visitors) {
      expect((await submit(form.key, { json: { email }, from: freshVisitor() })).status).toBe(200);
    }
    await eventually(
      () => emailsTo(owner),
      (list) => list.length === 4,
    );
    await untilEmailQueueDrained();
    const replies = (await Promise.all(visitors.map((to) => emailsTo(to)))).flat();
    expect(replies).toHaveLength(2);
  });

  it('the limit is a Pro setting of 1 to 1,000; answer placeholders in auto-replies are off until turned on', async () => {
    const free = await newForm('free');
    const refused = await api('PATCH', `/v1/forms/${free.id}`, {
      key: free.apiKey,
      body: { autoreplyHourlyLimit: 50 },
    });
    expect(refused.status).toBe(402);
    const pro = await newForm('pro');
    const created = await api('GET', `/v1/forms/${pro.id}`, { key: pro.apiKey });
    expect(created.body).toMatchObject({
      autoreplyHourlyLimit: 100,
      autoreplyAnswerPlaceholders: false,
    });
    for (const bad of [0, 1001, 2.5, '10']) {
      const response = await api('PATCH', `/v1/forms/${pro.id}`, {
        key: pro.apiKey,
        body: { autoreplyHourlyLimit: bad },
      });
      expect(response.status, String(bad)).toBe(400);
    }
  });
});

describe('receiver faults', () => {
  it('500, then 503, then 204: three attempts with one webhook-id and growing delays', async () => {
    const hooks = await receiver();
    hooks.script([{ status: 500 }, { status: 503, body: 'busy' }], { status: 204 });
    const form = await newForm('pro');
    const secret = await connectWebhook(form, hooks.url);
    const post = await submit(form.key, { json: { a: 'retry me' }, from: freshVisitor() });
    const tries = await hooks.waitFor(3);
    const ids = tries.map((hook) => headersOf(hook)['webhook-id']);
    expect(new Set(ids)).toEqual(new Set([`msg_${post.body?.submissionId}`]));
    for (const hook of tries) {
      expect(() => new StandardWebhook(secret).verify(hook.body, headersOf(hook))).not.toThrow();
    }
    const gaps = [tries[1]!.at - tries[0]!.at, tries[2]!.at - tries[1]!.at];
    // The test stack's delays are 1 s then 2 s (±20 %): each wait is real and the second longer.
    expect(gaps[0]).toBeGreaterThanOrEqual(700);
    expect(gaps[1]).toBeGreaterThan(gaps[0]!);
    const delivery = await deliveryWhen(form, post.body?.submissionId as string, 'delivered');
    expect(delivery?.attempts.map((a) => [a.number, a.outcome, a.responseStatus])).toEqual([
      [1, 'retrying', 500],
      [2, 'retrying', 503],
      [3, 'delivered', 204],
    ]);
    expect(delivery?.attempts[1]?.responseBody).toBe('busy');
    expect(delivery?.attempts[0]?.nextAttemptAt).toEqual(expect.any(String));
    expect((await webhookOf(form)).state).toBe('active');
  });

  it('a receiver that hangs past the timeout (10 s deployed, 3 s on the test stack) is cut off and tried again', async () => {
    const hooks = await receiver();
    hooks.script(['hang'], { status: 200 });
    const form = await newForm('pro');
    await connectWebhook(form, hooks.url);
    const post = await submit(form.key, { json: { a: 'slow' }, from: freshVisitor() });
    const delivery = await deliveryWhen(form, post.body?.submissionId as string, 'delivered');
    expect(delivery?.attempts.map((a) => a.outcome)).toEqual(['retrying', 'delivered']);
    expect(delivery?.attempts[0]?.error).toBe(
      `timeout: no response within ${TEST_RECEIVER_TIMEOUT_MS} ms`,
    );
    expect(delivery?.attempts[0]?.responseStatus).toBeNull();
  });

  it('a reset connection is tried again', async () => {
    const hooks = await receiver();
    hooks.script(['reset'], { status: 202 });
    const form = await newForm('pro');
    await connectWebhook(form, hooks.url);
    const post = await submit(form.key, { json: { a: 'reset' }, from: freshVisitor() });
    const delivery = await deliveryWhen(form, post.body?.submissionId as string, 'delivered');
    expect(delivery?.attempts.map((a) => a.outcome)).toEqual(['retrying', 'delivered']);
    expect(delivery?.attempts[0]?.error).toMatch(/^network/);
  });

  it('400 is not retried and marks the webhook failing; a later success makes it active', async () => {
    const hooks = await receiver();
    hooks.script([{ status: 400, body: 'bad' }], { status: 200 });
    const form = await newForm('pro');
    await connectWebhook(form, hooks.url);
    const first = await submit(form.key, { json: { a: '1' }, from: freshVisitor() });
    const failed = await deliveryWhen(form, first.body?.submissionId as string, 'failed');
    expect(failed?.attempts.map((a) => [a.outcome, a.responseStatus])).toEqual([['failed', 400]]);
    expect(await webhookOf(form)).toMatchObject({
      state: 'failing',
      lastError: expect.stringContaining('400'),
    });
    const second = await submit(form.key, { json: { a: '2' }, from: freshVisitor() });
    await deliveryWhen(form, second.body?.submissionId as string, 'delivered');
    expect(await webhookOf(form)).toMatchObject({ state: 'active', lastError: null });
    // Nothing tried the 400 again: a short wait for a retry that must not come (the test
    // stack's first retry would come about 1 s after the failure).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(hooks.received).toHaveLength(2);
  });

  it('a 302 is not followed: one attempt, the webhook failing', async () => {
    const hooks = await receiver();
    hooks.script([{ status: 302, headers: { location: `${hooks.url}/elsewhere` } }]);
    const form = await newForm('pro');
    await connectWebhook(form, hooks.url);
    const post = await submit(form.key, { json: { a: 'moved' }, from: freshVisitor() });
    const delivery = await deliveryWhen(form, post.body?.submissionId as string, 'failed');
    expect(delivery?.attempts.map((a) => a.responseStatus)).toEqual([302]);
    expect(hooks.received.map((hook) => hook.headers.host)).toHaveLength(1);
    expect((await webhookOf(form)).state).toBe('failing');
  });

  it('an address the guard refuses is never connected to, and not retried', async () => {
    const hooks = await receiver();
    const form = await newForm('pro');
    await connectWebhook(form, hooks.url);
    // What a name resolving to an unspecified address would give; saved past the API's check.
    const { forceWebhookUrl } = await import('#test/support/forms.ts');
    await forceWebhookUrl(form.id, `https://0.0.0.0:${hooks.port}/hook`);
    const post = await submit(form.key, { json: { a: 'ssrf' }, from: freshVisitor() });
    const delivery = await deliveryWhen(form, post.body?.submissionId as string, 'failed');
    expect(delivery?.attempts).toHaveLength(1);
    expect(delivery?.attempts[0]?.error).toMatch(/^refused_address: .*0\.0\.0\.0/);
    expect(hooks.received).toEqual([]);
    expect((await webhookOf(form)).lastError).toMatch(/0\.0\.0\.0/);
  });
});

describe('the retry window, the dead-letter queue and the delivery log', () => {
  it('a never-healthy receiver: after the schedule the message is in the DLQ and the delivery failed; retry sends it again with the same webhook-id', async () => {
    const hooks = await receiver();
    hooks.script([], { status: 503 });
    const form = await newForm('pro');
    await connectWebhook(form, hooks.url);
    const post = await submit(form.key, { json: { a: 'never' }, from: freshVisitor() });
    const submissionId = post.body?.submissionId as string;
    // The first attempt and one per delay of the test stack's schedule.
    const attempts = TEST_WEBHOOK_RETRY_DELAYS.length + 1;
    const failed = await deliveryWhen(form, submissionId, 'failed');
    expect(failed?.attempts.map((a) => a.outcome)).toEqual([
      ...Array(attempts - 1).fill('retrying'),
      'failed',
    ]);
    expect(hooks.received).toHaveLength(attempts);
    expect(await webhookOf(form)).toMatchObject({ state: 'failing' });
    const dead = await eventually(
      () => deadLetters('webhooks'),
      (bodies) => bodies.some((body) => body.submissionId === submissionId),
    );
    expect(dead).toContainEqual({ formId: form.id, submissionId });

    hooks.script([], { status: 204 });
    const retried = await api(
      'POST',
      `/v1/forms/${form.id}/webhook/deliveries/${submissionId}/retry`,
      { key: form.apiKey },
    );
    expect(retried.status, retried.text).toBe(202);
    expect(retried.body).toMatchObject({ status: 'pending', webhookId: `msg_${submissionId}` });
    const delivered = await deliveryWhen(form, submissionId, 'delivered');
    expect(delivered?.attempts.at(-1)).toMatchObject({ number: 1, outcome: 'delivered' });
    const ids = new Set(hooks.received.map((hook) => hook.headers['webhook-id']));
    expect(ids).toEqual(new Set([`msg_${submissionId}`]));
    // Only a failed delivery is sent again.
    const again = await api(
      'POST',
      `/v1/forms/${form.id}/webhook/deliveries/${submissionId}/retry`,
      {
        key: form.apiKey,
      },
    );
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ ok: false, error: 'delivery_not_failed' });
  });

  it('a rotated secret signs the very next delivery, and only the new secret verifies it; a new URL keeps the secret', async () => {
    const first = await receiver();
    const second = await receiver();
    const form = await newForm('pro');
    const oldSecret = await connectWebhook(form, first.url);
    const rotated = await api('POST', `/v1/forms/${form.id}/webhook/rotate-secret`, {
      key: form.apiKey,
    });
    const newSecret = rotated.body.secret as string;
    expect(newSecret).not.toBe(oldSecret);
    await submit(form.key, { json: { a: 'after rotation' }, from: freshVisitor() });
    const [hook] = await first.waitFor(1);
    expect(() => new StandardWebhook(newSecret).verify(hook!.body, headersOf(hook!))).not.toThrow();
    expect(() => new StandardWebhook(oldSecret).verify(hook!.body, headersOf(hook!))).toThrow();

    expect(await connectWebhook(form, second.url)).toBe(newSecret);
    await submit(form.key, { json: { a: 'after the move' }, from: freshVisitor() });
    const [moved] = await second.waitFor(1);
    expect(() => new SvixWebhook(newSecret).verify(moved!.body, headersOf(moved!))).not.toThrow();
    expect(first.received).toHaveLength(1);
  });

  it('lists deliveries newest first, by status, a page at a time; another team gets 404', async () => {
    const hooks = await receiver();
    hooks.script([{ status: 410 }], { status: 200 });
    const form = await newForm('pro');
    await connectWebhook(form, hooks.url);
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const post = await submit(form.key, { json: { n: String(n) }, from: freshVisitor() });
      ids.push(post.body?.submissionId as string);
      await hooks.waitFor(n);
    }
    const all = await eventually(
      () => deliveriesOf(form),
      (list) => list.length === 3 && list.every((d) => d.status !== 'pending'),
    );
    expect(all.map((d) => d.submissionId)).toEqual([...ids].reverse());
    expect((await deliveriesOf(form, '?status=failed')).map((d) => d.submissionId)).toEqual([
      ids[0],
    ]);
    expect((await deliveriesOf(form, '?status=delivered')).map((d) => d.submissionId)).toEqual([
      ids[2],
      ids[1],
    ]);
    const page1 = await api('GET', `/v1/forms/${form.id}/webhook/deliveries?limit=2`, {
      key: form.apiKey,
    });
    expect(
      (page1.body.deliveries as { submissionId: string }[]).map((d) => d.submissionId),
    ).toEqual([ids[2], ids[1]]);
    const page2 = await api(
      'GET',
      `/v1/forms/${form.id}/webhook/deliveries?limit=2&after=${page1.body.next}`,
      { key: form.apiKey },
    );
    expect(page2.body).toEqual({
      deliveries: [expect.objectContaining({ submissionId: ids[0] })],
      next: null,
    });
    const bad = await api('GET', `/v1/forms/${form.id}/webhook/deliveries?status=lost`, {
      key: form.apiKey,
    });
    expect(bad.status).toBe(400);

    const other = await newForm('pro');
    const foreign = await api('GET', `/v1/forms/${form.id}/webhook/deliveries`, {
      key: other.apiKey,
    });
    expect(foreign.status).toBe(404);
    const foreignRetry = await api(
      'POST',
      `/v1/forms/${form.id}/webhook/deliveries/${ids[0]}/retry`,
      { key: other.apiKey },
    );
    expect(foreignRetry.status).toBe(404);
    const unknown = await api(
      'POST',
      `/v1/forms/${form.id}/webhook/deliveries/${crypto.randomUUID()}/retry`,
      { key: form.apiKey },
    );
    expect(unknown.status).toBe(404);
  });
});

/** The bodies waiting in a queue's dead-letter queue, left there (peeked, not consumed). */
async function deadLetters(queue: 'webhooks' | 'emails'): Promise<Record<string, unknown>[]> {
  const info = stack();
  const sqs = new SQSClient({
    region: info.region,
    endpoint: info.endpoints.sqs,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const { Messages } = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: info.queues[queue]!.deadLetterUrl,
      MaxNumberOfMessages: 10,
      VisibilityTimeout: 0,
    }),
  );
  sqs.destroy();
  return (Messages ?? []).map((message) => JSON.parse(message.Body ?? '{}'));
}
