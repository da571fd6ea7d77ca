import { createHash } from 'node:crypto';
import {
  GetScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
} from '@aws-sdk/client-scheduler';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { confirmToken } from '#domain/confirmation.ts';
import { mailboxHash, mailboxOf } from '#domain/mailbox.ts';
import { PENDING_SWEEP_GRACE_SECONDS, pendingSweepName } from '#domain/pending-sweep.ts';
import { windowAt } from '#domain/rate-limit.ts';
import { api, stack } from '#test/support/api.ts';
import {
  connectWebhook,
  DELIVERY_WAIT_MS,
  emailsTo,
  eventually,
  newReceiver,
  type SentEmail,
  untilEmailQueueDrained,
} from '#test/support/delivery.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { until } from '#test/support/poll.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';
import { TEST_CONFIRM_LINK_SECONDS } from './stack-settings.ts';

// Deliveries share the run's stream and queues: waits may be long under the full suite.
vi.setConfig({ testTimeout: 240_000 });

/**
 * Issue 43, "Confirm by email" and "Confirmation emails under the same
 * bounds as auto-replies", end to end through the local stack: a post to a
 * form with confirmEmail is stored pending, its confirmation email arrives
 * in the SES emulator's inbox, the link's page and its button confirm it,
 * and only then is it counted and delivered, once.
 */

const unique = () => crypto.randomUUID().slice(0, 8);
const FIELDS = [
  { id: 'email', type: 'email', required: true, label: 'Email' },
  { id: 'message', type: 'textarea', label: 'Message' },
];
const SETTINGS = { fields: FIELDS, confirmEmail: { field: 'email' } };

/** A post's JSON answer; the post must be accepted. */
async function post(form: TestForm, answers: Record<string, string>) {
  const response = await submit(form.key, { json: answers, from: freshVisitor() });
  expect(response.status, response.text).toBe(200);
  return response.body as { ok: true; submissionId: string; pending?: string };
}

/** A link the stack signs, made here with its secret (a test needs no inbox for 40 links). */
function linkFor(form: TestForm, submissionId: string, expiresInSeconds: number): string {
  const token = confirmToken(inject('keyedHashSecret'), {
    teamId: form.teamId,
    formId: form.id,
    submissionId,
    expiresAt: Math.floor(Date.now() / 1000) + expiresInSeconds,
  });
  return `${stack().baseUrl}/c/${token}`;
}

async function follow(link: string, method: 'GET' | 'POST') {
  const response = await fetch(link, { method });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

const submission = (form: TestForm, id: string) =>
  api<Record<string, unknown> & { confirmation: Record<string, unknown> | null; read: boolean }>(
    'GET',
    `/v1/forms/${form.id}/submissions/${id}`,
    { key: form.apiKey },
  );

async function folderCounts(form: TestForm) {
  const list = await api<{ folderCounts: Record<string, number>; submissionCount: number }>(
    'GET',
    `/v1/forms/${form.id}/submissions?filter=pending`,
    { key: form.apiKey },
  );
  expect(list.status, list.text).toBe(200);
  return { ...list.body.folderCounts, submissionCount: list.body.submissionCount };
}

/** The form's summary once it counts `count` not confirmed (the purge's count reaches it late). */
const summaryWhenNotConfirmed = (form: TestForm, count: number) =>
  until(
    () =>
      api<{ notConfirmed: number; totals: { stored: number } }>(
        'GET',
        `/v1/forms/${form.id}/summary`,
        { key: form.apiKey },
      ),
    (answer) => answer.body.notConfirmed === count,
    { timeoutMs: 30_000, intervalMs: 500, what: 'notConfirmed counted' },
  );

/**
 * Waits until each post's confirmation is decided (sent, or refused by a bound), from each
 * one's own email mark: the run's emails queue, shared by every file, may stay busy for
 * minutes under the whole suite, so "the queue is empty" is no signal here.
 */
async function untilConfirmationsDecided(
  posts: readonly { formId: string; submissionId: string }[],
): Promise<void> {
  await localStore();
  const { getEmailMark } = await import('#store/deliveries.ts');
  const undecided = await until(
    async () => {
      const marks = await Promise.all(
        posts.map(({ formId, submissionId }) => getEmailMark(formId, submissionId, 'confirm')),
      );
      return marks.filter((mark) => !mark?.sentAt && !mark?.refusedAt).length;
    },
    (count) => count === 0,
    { timeoutMs: 90_000, intervalMs: 500, what: 'every confirmation sent or refused' },
  );
  expect(undecided).toBe(0);
}

const isConfirmation = (email: SentEmail) => email.subject.startsWith('Confirm your answer to');
const linkIn = (email: SentEmail) =>
  /https?:\/\/\S+\/c\/[A-Za-z0-9_.-]+/.exec(email.body.text ?? '')?.[0];

/**
 * Forms whose one pending post was made first, so its link has expired by the file's end: one
 * that gets a next pending post after the expiry, one keeping submissions 30 test days (90 s)
 * (its retention sweep, every 10 s on the test stack, runs the same purge), and a quiet one that
 * gets nothing more: its pending sweep alone deletes the post.
 */
type Expiring = { form: TestForm; id: string; postedAt: number; answeredAt: number };
let expiring: Expiring;
let expiringRetained: Expiring;
let quiet: Expiring & { sweepAt: number };

/** The local Scheduler, where the pending purger puts each form's pending sweep. */
let scheduler: SchedulerClient;

/** When the form's pending sweep is due (epoch ms), or undefined when it has none. */
async function pendingSweepOf(form: TestForm): Promise<number | undefined> {
  try {
    const schedule = await scheduler.send(
      new GetScheduleCommand({ Name: pendingSweepName(form.id), GroupName: stack().scheduleGroup }),
    );
    const at = /^at\((.+)\)$/.exec(schedule.ScheduleExpression ?? '')?.[1];
    return at ? Date.parse(`${at}Z`) : Number.NaN;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

/** The earliest and latest a sweep for a post made between `postedAt` and `answeredAt` is due. */
function sweepWindow(postedAt: number, answeredAt: number): [number, number] {
  const after = (TEST_CONFIRM_LINK_SECONDS + PENDING_SWEEP_GRACE_SECONDS) * 1000;
  // The at() expression is in whole seconds, rounded up.
  return [postedAt + after, answeredAt + after + 1000];
}

beforeAll(async () => {
  scheduler = new SchedulerClient({
    endpoint: stack().endpoints.scheduler,
    region: stack().region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const make = async (settings: Record<string, unknown>) => {
    const form = await newForm('free', settings, { name: `Expiring ${unique()}`, type: 'custom' });
    const postedAt = Date.now();
    const { submissionId } = await post(form, { email: `late-${unique()}@example.com` });
    return { form, id: submissionId, postedAt, answeredAt: Date.now() };
  };
  const made = await Promise.all([
    make(SETTINGS),
    make({ ...SETTINGS, retentionDays: 30 }),
    make(SETTINGS),
  ]);
  [expiring, expiringRetained] = made;
  // The stored post's purge puts the quiet form's sweep at its link's expiry, plus the grace.
  const sweepAt = await until(
    () => pendingSweepOf(made[2].form),
    (at) => at !== undefined,
    { timeoutMs: 20_000, intervalMs: 250, what: 'the quiet form’s pending sweep scheduled' },
  );
  quiet = { ...made[2], sweepAt: sweepAt! };
});

afterAll(() => scheduler?.destroy());

describe('a post to a form that asks people to confirm their email', () => {
  let receiver: WebhookReceiver;
  afterAll(() => receiver?.close());

  it('is stored pending and delivered once, only after the click on the emailed link', async () => {
    const owner = `owner-${unique()}@example.com`;
    const visitor = `ada-${unique()}@example.com`;
    const form = await newForm(
      'pro',
      { ...SETTINGS, notifyEmail: owner, autoreplyEnabled: true },
      { name: `RSVP <b>${unique()}</b>`, type: 'custom' },
    );
    receiver = await newReceiver();
    await connectWebhook(form, receiver.url);

    const answer = await post(form, { email: visitor, message: 'Hello' });
    expect(answer).toEqual({
      ok: true,
      submissionId: expect.any(String),
      pending: 'confirm_email',
    });
    const id = answer.submissionId;
    const held = await submission(form, id);
    expect(held.body.confirmation).toEqual({
      status: 'pending',
      requestedAt: expect.any(String),
      confirmedAt: null,
    });
    expect(await folderCounts(form)).toMatchObject({
      all: 0,
      unread: 0,
      pending: 1,
      submissionCount: 0,
    });
    // Not in the inbox: only the pending folder lists it.
    const inbox = await api<{ items: { id: string }[] }>(
      'GET',
      `/v1/forms/${form.id}/submissions`,
      {
        key: form.apiKey,
      },
    );
    expect(inbox.body.items.map((item) => item.id)).not.toContain(id);

    // The confirmation email: plain words, the form's name, the link, the expiry.
    const emails = await eventually(
      () => emailsTo(visitor),
      (list) => list.some(isConfirmation),
    );
    const confirmation = emails.find(isConfirmation);
    expect(confirmation, 'the confirmation email').toBeDefined();
    expect(confirmation!.body.text).toContain('RSVP <b>');
    expect(confirmation!.body.html).toContain('RSVP &lt;b&gt;');
    expect(confirmation!.body.text).toMatch(/The link works until .+ UTC/);
    // Before the click: no notification, no webhook, no auto-reply. Checked once a marker
    // posted after it, to a second form of the team with the same receiver and owner, was
    // delivered: the pending post's record went through the same stream and queues before it.
    const marker = await api('POST', '/v1/forms', {
      key: form.apiKey,
      body: { name: `Marker ${unique()}`, type: 'custom' },
    });
    expect(marker.status, marker.text).toBe(201);
    const markerForm = { ...form, id: marker.body.id as string, key: marker.body.key as string };
    const patched = await api('PATCH', `/v1/forms/${markerForm.id}`, {
      key: form.apiKey,
      body: { notifyEmail: owner },
    });
    expect(patched.status, patched.text).toBe(200);
    await connectWebhook(markerForm, receiver.url);
    const markerId = (await post(markerForm, { email: `marker-${unique()}@example.com` }))
      .submissionId;
    const [markerHook] = await receiver.waitFor(1, 60_000);
    expect(JSON.parse(markerHook!.body).data.submissionId).toBe(markerId);
    await eventually(
      () => emailsTo(owner),
      (list) => list.length >= 1,
    );
    await untilEmailQueueDrained(undefined, 2 * DELIVERY_WAIT_MS);
    expect(receiver.received, 'only the marker’s delivery').toHaveLength(1);
    const ownerMails = await emailsTo(owner);
    expect(ownerMails, 'only the marker’s notification').toHaveLength(1);
    expect(ownerMails[0]!.subject).toContain('Marker');
    expect((await emailsTo(visitor)).filter((email) => !isConfirmation(email))).toEqual([]);
    // Not counted in the month's usage while it waits.
    const usage = async () =>
      (await api<{ usage: { submissions: number } }>('GET', '/v1/team', { key: form.apiKey })).body
        .usage.submissions;
    expect(await usage(), 'the marker alone').toBe(1);

    const link = linkIn(confirmation!)!;
    expect(link.startsWith(`${stack().baseUrl}/c/`)).toBe(true);
    // Opening the link changes nothing: a page with one button.
    const page = await follow(link, 'GET');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Confirm my answer');
    expect(page.text).toContain('<form method="post">');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect((await submission(form, id)).body.confirmation).toMatchObject({ status: 'pending' });

    const confirmed = await follow(link, 'POST');
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.text).toContain('Thank you, your answer is confirmed');
    const after = await submission(form, id);
    expect(after.body.confirmation).toEqual({
      status: 'confirmed',
      requestedAt: held.body.confirmation!.requestedAt,
      confirmedAt: expect.any(String),
    });
    expect(after.body.createdAt).toBe(held.body.createdAt);
    expect(after.body.read).toBe(false);
    expect(await folderCounts(form)).toMatchObject({
      all: 1,
      unread: 1,
      pending: 0,
      submissionCount: 1,
    });

    // Counted in the month's usage once, at the click.
    expect(await usage(), 'the marker and the confirmed post').toBe(2);

    // A second click: already confirmed, nothing more.
    const again = await follow(link, 'POST');
    expect(again.status).toBe(200);
    expect(again.text).toContain('already confirmed');
    expect(await usage(), 'a second click counts nothing').toBe(2);

    // Delivered once each: the webhook, the notification, the auto-reply.
    const hooks = await receiver.waitFor(2, 60_000);
    expect(JSON.parse(hooks[1]!.body).data.submissionId).toBe(id);
    await eventually(
      () => emailsTo(owner),
      (list) => list.length >= 2,
    );
    await eventually(
      () => emailsTo(visitor),
      (list) => list.filter((email) => !isConfirmation(email)).length >= 1,
    );
    await untilEmailQueueDrained(undefined, 2 * DELIVERY_WAIT_MS);
    expect((await emailsTo(owner)).length, 'notifications: the marker’s and this one').toBe(2);
    expect((await emailsTo(visitor)).filter((email) => !isConfirmation(email)).length).toBe(1);
    expect((await emailsTo(visitor)).filter(isConfirmation).length).toBe(1);
    expect(receiver.received.length, 'webhook deliveries: the marker’s and this one').toBe(2);
    // Counted once in the summary, from the click.
    const summary = await until(
      () =>
        api<{ totals: { stored: number } }>('GET', `/v1/forms/${form.id}/summary`, {
          key: form.apiKey,
        }),
      (answer) => answer.body.totals?.stored === 1,
      { timeoutMs: 30_000, intervalMs: 500, what: 'the summary counting the confirmed post' },
    );
    expect(summary.body.totals.stored).toBe(1);
  });

  it('answers a browser post with words that send the visitor to the inbox, never the address', async () => {
    const form = await newForm('free', SETTINGS);
    const address = `page-${unique()}@example.com`;
    const response = await submit(form.key, {
      form: { email: address },
      headers: { accept: 'text/html' },
      from: freshVisitor(),
    });
    expect(response.status).toBe(200);
    expect(response.text).toContain('Check your inbox to confirm your answer.');
    expect(response.text).not.toContain(address);
  });

  it('the setting: read back, refused at confirmEmail.field for an optional field; a retry replays "pending"', async () => {
    const form = await newForm('free', SETTINGS);
    const read = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(read.body.confirmEmail).toEqual({ field: 'email' });
    const loosened = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { fields: [{ id: 'email', type: 'email' }] },
    });
    expect(loosened.status).toBe(400);
    expect(loosened.body.issues).toEqual([
      expect.objectContaining({
        path: 'confirmEmail.field',
        message: 'Must name a required field',
      }),
    ]);
    // A post sent twice with one Idempotency-Key: the retry answers "pending" again, stores nothing.
    const headers = { 'idempotency-key': `confirm-${unique()}` };
    const json = { email: `retry-${unique()}@example.com` };
    const first = await submit(form.key, { json, headers, from: freshVisitor() });
    const again = await submit(form.key, { json, headers, from: freshVisitor() });
    expect(again.body).toEqual(first.body);
    expect(again.body?.pending).toBe('confirm_email');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await folderCounts(form)).toMatchObject({ pending: 1 });
  });

  it('answers spam as it answers a clean post (JSON, page, replay): the visitor never learns it was spam', async () => {
    const form = await newForm('free', SETTINGS);
    const spamOf = async (id: string) => {
      const read = await submission(form, id);
      return { isSpam: read.body.isSpam, spamReason: read.body.spamReason };
    };
    // Link spam, decided before storing.
    const links = {
      email: `links-${unique()}@example.com`,
      message: '<a href="https://x.test">x</a>',
    };
    const linkSpam = await post(form, links);
    expect(linkSpam).toEqual({
      ok: true,
      submissionId: expect.any(String),
      pending: 'confirm_email',
    });
    expect(await spamOf(linkSpam.submissionId)).toEqual({ isSpam: true, spamReason: 'links' });
    // The same page for a browser's clean post and its link spam.
    const page = (answers: Record<string, string>) =>
      submit(form.key, { form: answers, headers: { accept: 'text/html' }, from: freshVisitor() });
    const cleanPage = await page({ email: `clean-${unique()}@example.com` });
    const spamPage = await page(links);
    expect(spamPage.status).toBe(200);
    expect(spamPage.text).toContain('Check your inbox to confirm your answer.');
    expect(spamPage.text).toBe(cleanPage.text);
    // A duplicate the store finds (the same answers from the same visitor), sent with a key:
    // answered "pending" too, and its retry replays exactly that.
    const visitor = freshVisitor();
    const json = { email: `twice-${unique()}@example.com`, message: 'Hello' };
    const first = await submit(form.key, { json, from: visitor });
    const headers = { 'idempotency-key': `dup-${unique()}` };
    const duplicate = await submit(form.key, { json, headers, from: visitor });
    expect(duplicate.body).toEqual({
      ok: true,
      submissionId: expect.any(String),
      pending: 'confirm_email',
    });
    expect(duplicate.body?.submissionId).not.toBe(first.body?.submissionId);
    expect(await spamOf(duplicate.body?.submissionId as string)).toEqual({
      isSpam: true,
      spamReason: 'duplicate',
    });
    const replayed = await submit(form.key, { json, headers, from: visitor });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(duplicate.body);
  });

  it('refuses triage of a pending submission (409 submission_pending) and allows its DELETE', async () => {
    const form = await newForm('free', SETTINGS);
    const { submissionId } = await post(form, { email: `triage-${unique()}@example.com` });
    const read = await api('PATCH', `/v1/forms/${form.id}/submissions`, {
      key: form.apiKey,
      body: { target: { ids: [submissionId] }, read: true },
    });
    expect(read.status, read.text).toBe(409);
    expect(read.body.error).toBe('submission_pending');
    const deleted = await api('DELETE', `/v1/forms/${form.id}/submissions`, {
      key: form.apiKey,
      body: { target: { ids: [submissionId] } },
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.count).toBe(1);
    expect(await folderCounts(form)).toMatchObject({ pending: 0, all: 0 });
  });
});

describe('a confirmation link', () => {
  let form: TestForm;
  let pendingId: string;
  beforeAll(async () => {
    form = await newForm('free', SETTINGS);
    pendingId = (await post(form, { email: `links-${unique()}@example.com` })).submissionId;
  });

  it('forged or tampered: "This link is not valid" (404), nothing changes', async () => {
    const real = linkFor(form, pendingId, 600);
    const tampered = `${real.slice(0, -2)}${real.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const link of [`${stack().baseUrl}/c/not-a-token`, tampered]) {
      for (const method of ['GET', 'POST'] as const) {
        const page = await follow(link, method);
        expect(page.status, `${method} ${link}`).toBe(404);
        expect(page.text).toContain('This link is not valid');
      }
    }
    // Signed by another secret: forged as well.
    const other = confirmToken('x'.repeat(64), {
      teamId: form.teamId,
      formId: form.id,
      submissionId: pendingId,
      expiresAt: Math.floor(Date.now() / 1000) + 600,
    });
    expect((await follow(`${stack().baseUrl}/c/${other}`, 'POST')).status).toBe(404);
    expect((await submission(form, pendingId)).body.confirmation).toMatchObject({
      status: 'pending',
    });
  });

  it('expired: says so (410) with a way to send the form again, and changes nothing', async () => {
    const page = await follow(linkFor(form, pendingId, -1), 'POST');
    expect(page.status).toBe(410);
    expect(page.text).toContain('This link has expired');
    expect(page.text).toContain(`${stack().baseUrl}/f/${form.key}`);
    expect((await submission(form, pendingId)).body.confirmation).toMatchObject({
      status: 'pending',
    });
  });
});

describe('an expired link’s way to send the form again', () => {
  const postFrom = async (form: TestForm, headers: Record<string, string>) => {
    const response = await submit(form.key, {
      json: { email: `again-${unique()}@example.com` },
      headers,
      from: freshVisitor(),
    });
    expect(response.status, response.text).toBe(200);
    return response.body?.submissionId as string;
  };
  const expiredPage = async (form: TestForm, id: string) => {
    const page = await follow(linkFor(form, id, -1), 'POST');
    expect(page.status).toBe(410);
    return page.text;
  };

  it('links the page the post came from only on the form’s allowedOrigins, else the hosted page', async () => {
    // Open to every site: a scripted post's Referer is never linked.
    const open = await newForm('free', SETTINGS);
    const scripted = await postFrom(open, { referer: 'https://evil.example/phish' });
    const openPage = await expiredPage(open, scripted);
    expect(openPage).not.toContain('evil.example');
    expect(openPage).toContain(`${stack().baseUrl}/f/${open.key}`);
    // Locked to a site: its own page is linked; a Referer elsewhere (the Origin let it in) is not.
    const locked = await newForm('free', { ...SETTINGS, allowedOrigins: ['https://site.example'] });
    const own = await postFrom(locked, {
      origin: 'https://site.example',
      referer: 'https://site.example/contact',
    });
    expect(await expiredPage(locked, own)).toContain('https://site.example/contact');
    const elsewhere = await postFrom(locked, {
      origin: 'https://site.example',
      referer: 'https://evil.example/phish',
    });
    const lockedPage = await expiredPage(locked, elsewhere);
    expect(lockedPage).not.toContain('evil.example');
    expect(lockedPage).toContain(`${stack().baseUrl}/f/${locked.key}`);
  });
});

describe('the form’s limit, enforced at confirmation', () => {
  it('40 clicks racing for the last 10 places confirm exactly 10; the rest see "full"', async () => {
    const form = await newForm('free', { ...SETTINGS, maxSubmissions: 10 });
    // One mailbox with tags: three confirmation emails go, the rest are bounded (and not needed).
    const mailbox = `race-${unique()}`;
    const ids: string[] = [];
    for (let i = 0; i < 40; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          post(form, { email: `${mailbox}+${i + k}@example.com` }),
        ),
      );
      ids.push(...batch.map((answer) => answer.submissionId));
    }
    expect(await folderCounts(form)).toMatchObject({ pending: 40, submissionCount: 0 });
    const pages = await Promise.all(ids.map((id) => follow(linkFor(form, id, 600), 'POST')));
    const confirmed = pages.filter((page) => page.status === 200);
    const full = pages.filter((page) => page.status === 409);
    expect(confirmed.length).toBe(10);
    expect(full.length).toBe(30);
    for (const page of confirmed) expect(page.text).toContain('your answer is confirmed');
    for (const page of full) expect(page.text).toMatch(/This form is full|not taking answers/);
    expect(await folderCounts(form)).toMatchObject({ all: 10, pending: 30, submissionCount: 10 });
  });
});

describe('one answer per person, decided at the click', () => {
  it('two posts of one person both wait; the first click confirms, the second says "already answered" and changes nothing', async () => {
    const form = await newForm('free', { ...SETTINGS, unique: { field: 'email' } });
    const person = `once${unique()}`;
    // One mailbox, two spellings: neither post is told anything (the place is taken at the click).
    const first = await post(form, { email: `${person}@gmail.com` });
    const second = await post(form, {
      email: `${person.slice(0, 2)}.${person.slice(2)}+2@gmail.com`,
    });
    expect(first.pending).toBe('confirm_email');
    expect(second.pending).toBe('confirm_email');
    expect(await folderCounts(form)).toMatchObject({ pending: 2, spam: 0 });
    const confirmed = await follow(linkFor(form, first.submissionId, 600), 'POST');
    expect(confirmed.status, confirmed.text).toBe(200);
    const refused = await follow(linkFor(form, second.submissionId, 600), 'POST');
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('You have already answered this form');
    expect((await submission(form, second.submissionId)).body.confirmation).toMatchObject({
      status: 'pending',
    });
    expect(await folderCounts(form)).toMatchObject({ all: 1, pending: 1, submissionCount: 1 });
    // Erasing the first answer frees the place: the second click then confirms.
    const erased = await api('DELETE', `/v1/forms/${form.id}/submissions`, {
      key: form.apiKey,
      body: { target: { ids: [first.submissionId] } },
    });
    expect(erased.status, erased.text).toBe(200);
    const again = await follow(linkFor(form, second.submissionId, 600), 'POST');
    expect(again.status, again.text).toBe(200);
    expect(await folderCounts(form)).toMatchObject({ all: 1, pending: 0, submissionCount: 1 });
  });
});

describe('a deletion planned from the pending copy, racing the click', () => {
  /**
   * The race made deterministic: the pending item read (as the expiry purge, an erase or a
   * DELETE reads it), the click confirms it through the stack, then the deletion planned
   * from the stale copy runs through the store's own function. The click won: the deletion
   * must not commit as planned (the pending counter down twice, all/unread/submissionCount
   * keeping a gone submission, the person's place never freed).
   */
  const staleCopy = async (form: TestForm, id: string) => {
    const store = await localStore();
    const stale = await store.submissions.getSubmission(form.id, id);
    expect(stale?.confirmation?.status).toBe('pending');
    const confirmed = await follow(linkFor(form, id, 600), 'POST');
    expect(confirmed.status, confirmed.text).toBe(200);
    const changes = await import('#store/submission-changes.ts');
    const state = await import('#domain/confirmation-state.ts');
    return {
      run: (edit: 'purge' | 'delete') =>
        changes.editSubmissions(
          form.id,
          (async function* () {
            yield [stale as NonNullable<typeof stale>];
          })(),
          (s) => (edit === 'delete' || state.isPending(s) ? 'delete' : undefined),
        ),
    };
  };

  it('the expiry purge leaves a submission confirmed meanwhile, counted once', async () => {
    const form = await newForm('free', { ...SETTINGS, unique: { field: 'email' } });
    const { submissionId } = await post(form, { email: `race-${unique()}@example.com` });
    const { run } = await staleCopy(form, submissionId);
    expect((await run('purge')).count).toBe(0);
    expect((await submission(form, submissionId)).body.confirmation).toMatchObject({
      status: 'confirmed',
    });
    expect(await folderCounts(form)).toMatchObject({
      all: 1,
      unread: 1,
      pending: 0,
      submissionCount: 1,
    });
  });

  it('a delete or an erase deletes it as it is now: counters exact, the person’s place freed', async () => {
    const form = await newForm('free', { ...SETTINGS, unique: { field: 'email' } });
    const email = `race-${unique()}@example.com`;
    const { submissionId } = await post(form, { email });
    const { run } = await staleCopy(form, submissionId);
    expect((await run('delete')).count).toBe(1);
    expect((await submission(form, submissionId)).status).toBe(404);
    expect(await folderCounts(form)).toMatchObject({
      all: 0,
      unread: 0,
      pending: 0,
      submissionCount: 0,
    });
    // The place went with it: the same person's next answer confirms.
    const next = await post(form, { email });
    const again = await follow(linkFor(form, next.submissionId, 600), 'POST');
    expect(again.status, again.text).toBe(200);
    expect(await folderCounts(form)).toMatchObject({ all: 1, pending: 0, submissionCount: 1 });
  });
});

describe('confirmation emails under the auto-reply’s bounds', () => {
  it('one email a form a day: two posts of one address to one form (under the hour’s 3) get one', async () => {
    const form = await newForm('free', SETTINGS);
    const address = `twice-${unique()}@example.com`;
    const answers = [
      await post(form, { email: address, message: 'first' }),
      await post(form, { email: address, message: 'second' }),
    ];
    expect(answers.map((answer) => answer.pending)).toEqual(['confirm_email', 'confirm_email']);
    await eventually(
      () => emailsTo(address),
      (list) => list.some(isConfirmation),
    );
    await untilConfirmationsDecided(
      answers.map((answer) => ({ formId: form.id, submissionId: answer.submissionId })),
    );
    expect((await emailsTo(address)).filter(isConfirmation)).toHaveLength(1);
    expect(await folderCounts(form)).toMatchObject({ pending: 2 });
  });

  it('the form’s autoreplyHourlyLimit bounds its confirmation emails: 2 an hour, 3 addresses', async () => {
    const form = await newForm('pro', { ...SETTINGS, autoreplyHourlyLimit: 2 });
    const addresses = [1, 2, 3].map((n) => `limit${n}-${unique()}@example.com`);
    const posted = [];
    for (const email of addresses) posted.push(await post(form, { email }));
    const reached = async () =>
      (await Promise.all(addresses.map((to) => emailsTo(to)))).flat().filter(isConfirmation);
    await eventually(reached, (list) => list.length >= 2);
    await untilConfirmationsDecided(
      posted.map((answer) => ({ formId: form.id, submissionId: answer.submissionId })),
    );
    expect((await reached()).length, 'confirmation emails this hour').toBe(2);
    expect(await folderCounts(form)).toMatchObject({ pending: 3 });
  });

  it('50 posts naming one victim across 10 forms: one email a form a day, 3 an hour in all', async () => {
    const first = await newForm('pro', SETTINGS, { name: 'Bounds 0', type: 'custom' });
    const forms = [first];
    for (let i = 1; i < 10; i += 1) {
      const created = await api('POST', '/v1/forms', {
        key: first.apiKey,
        body: { name: `Bounds ${i}`, type: 'custom' },
      });
      expect(created.status, created.text).toBe(201);
      const id = created.body.id as string;
      const patched = await api('PATCH', `/v1/forms/${id}`, { key: first.apiKey, body: SETTINGS });
      expect(patched.status, patched.text).toBe(200);
      forms.push({ ...first, id, key: created.body.key as string });
    }
    // One Gmail mailbox, spelled five ways: the bounds fold them.
    const victim = `victim${unique()}`;
    const spellings = [
      `${victim}@gmail.com`,
      `${victim}+rsvp@gmail.com`,
      `${victim.slice(0, 3)}.${victim.slice(3)}@gmail.com`,
      `${victim.toUpperCase()}@googlemail.com`,
      `${victim}+x@GMAIL.com`,
    ];
    const answers = await Promise.all(
      forms.flatMap((form) =>
        spellings.map((email) => post(form, { email, message: `for ${form.id}` })),
      ),
    );
    // The visitor is never told which post got an email.
    for (const answer of answers) {
      expect(Object.keys(answer).sort()).toEqual(['ok', 'pending', 'submissionId']);
    }
    const mailbox = mailboxOf(spellings[0]!);
    // Each spelling as typed and as stored (the domain lower-cased): a lookup by the typed
    // `+x@GMAIL.com` alone missed the email when that post was among the three sent.
    const stored = [
      ...new Set(spellings.flatMap((to) => [to, to.replace(/@.*$/, (at) => at.toLowerCase())])),
    ];
    const reachingVictim = async () => {
      const all = (await Promise.all(stored.map((to) => emailsTo(to)))).flat();
      const seen = new Map(all.map((email) => [email.messageId, email]));
      return [...seen.values()].filter(
        (email) =>
          email.destination.to.some((to) => mailboxOf(to) === mailbox) && isConfirmation(email),
      );
    };
    // Every post's confirmation decided first (its own mark: sent or refused), then the inbox
    // read for exactly the emails sent: under the whole suite the emails arrive late.
    const posts = forms.flatMap((form, f) =>
      spellings.map((_, s) => ({
        formId: form.id,
        submissionId: answers[f * spellings.length + s]!.submissionId,
      })),
    );
    await untilConfirmationsDecided(posts);
    const { getEmailMark } = await import('#store/deliveries.ts');
    const marks = await Promise.all(
      posts.map(({ formId, submissionId }) => getEmailMark(formId, submissionId, 'confirm')),
    );
    expect(
      marks.map((mark) => (mark?.sentAt ? 'sent' : mark?.refusedBy)).filter((m) => m === 'sent'),
      `the posts' confirmation marks: ${JSON.stringify(marks.map((mark) => mark?.refusedBy ?? (mark?.sentAt ? 'sent' : mark)))}`,
    ).toHaveLength(3);
    const sent = await eventually(reachingVictim, (list) => list.length >= 3, 120_000);
    expect(sent.length, 'confirmation emails reaching the mailbox this hour').toBe(3);
    const formsEmailed = new Set(sent.map((email) => email.subject));
    expect(formsEmailed.size, 'one email a form').toBe(3);
  });
});

describe('the bounds’ counters', () => {
  it('name the mailbox only by its keyed hash, never by a plain SHA-256 of it', async () => {
    const form = await newForm('free', SETTINGS);
    const address = `keyed-${unique()}@example.com`;
    const mailbox = mailboxOf(address);
    const from = Date.now();
    await post(form, { email: address });
    await until(
      () => emailsTo(address),
      (list) => list.some(isConfirmation),
      { timeoutMs: 60_000, what: 'the confirmation email' },
    );
    const hours = [...new Set([from, Date.now()].map((at) => windowAt(at, 3600).start))];
    const { documents } = await localStore();
    const { tableName } = inject('localStack');
    const { rateWindowKey } = await import('#store/keys.ts');
    const held = async (scope: string, start: number) =>
      (
        await documents.send(
          new GetCommand({ TableName: tableName, Key: rateWindowKey(scope, start) }),
        )
      ).Item !== undefined;
    const plain = createHash('sha256').update(mailbox).digest('hex');
    const keyed = mailboxHash(inject('keyedHashSecret'), mailbox);
    expect(keyed).not.toContain(plain);
    // The one-a-day mark of this form and mailbox, and the mailbox's hour across forms.
    expect(await held(`CONFIRM#${form.id}#${plain}`, 0)).toBe(false);
    expect(await held(`CONFIRM#${form.id}#${keyed}`, 0)).toBe(true);
    for (const hour of hours) expect(await held(`AUTOREPLY#${plain}`, hour)).toBe(false);
    const counted = await Promise.all(hours.map((hour) => held(`AUTOREPLY#${keyed}`, hour)));
    expect(counted).toContain(true);
  });
});

describe('erase and export by email', () => {
  it('cover a pending submission', async () => {
    const form = await newForm('free', SETTINGS);
    const person = `person-${unique()}@example.com`;
    const { submissionId } = await post(form, { email: person });
    const exported = await api<{ submissions: { id: string }[] }>(
      'GET',
      `/v1/privacy/submissions?email=${encodeURIComponent(person)}`,
      { key: form.apiKey },
    );
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.submissions.map((each) => each.id)).toEqual([submissionId]);
    const erased = await api<{ count: number }>('POST', '/v1/privacy/erasures', {
      key: form.apiKey,
      body: { email: person },
    });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.count).toBe(1);
    expect((await submission(form, submissionId)).status).toBe(404);
    expect(await folderCounts(form)).toMatchObject({ pending: 0 });
  });
});

describe('an unconfirmed submission past its link', () => {
  it('deleted once a later pending post comes (or its sweep), leaves only notConfirmed; the sweep moves to the later post', async () => {
    const { form, id, postedAt } = expiring;
    // Its own link, as the email worker signed it, expires TEST_CONFIRM_LINK_SECONDS after the post.
    const expiresAt = Math.ceil(postedAt / 1000) + TEST_CONFIRM_LINK_SECONDS;
    const link = `${stack().baseUrl}/c/${confirmToken(inject('keyedHashSecret'), {
      teamId: form.teamId,
      formId: form.id,
      submissionId: id,
      expiresAt,
    })}`;
    await until(
      () => follow(link, 'GET'),
      (page) => page.status === 410,
      {
        timeoutMs: (TEST_CONFIRM_LINK_SECONDS + 30) * 1000,
        intervalMs: 1000,
        what: 'the link expired',
      },
    );
    // A new pending post runs the form's purge.
    const nextPostedAt = Date.now();
    await post(form, { email: `next-${unique()}@example.com` });
    const nextAnsweredAt = Date.now();
    await until(
      () => submission(form, id),
      (answer) => answer.status === 404,
      { timeoutMs: 60_000, intervalMs: 500, what: 'the expired submission deleted' },
    );
    const summary = await summaryWhenNotConfirmed(form, 1);
    expect(summary.body.totals.stored).toBe(0);
    expect(await folderCounts(form)).toMatchObject({ pending: 1, all: 0, submissionCount: 0 });
    // The form's one sweep now waits for the later post's expiry.
    const [earliest, latest] = sweepWindow(nextPostedAt, nextAnsweredAt);
    const sweepAt = await until(
      () => pendingSweepOf(form),
      (at) => at !== undefined && at >= earliest,
      { timeoutMs: 20_000, intervalMs: 250, what: 'the sweep moved to the later post' },
    );
    expect(sweepAt).toBeLessThanOrEqual(latest);
  });

  it('on a quiet form (no later post, no retentionDays), is deleted by its pending sweep at its expiry, counted once; the sweep is then removed', async () => {
    const { form, id, postedAt, answeredAt, sweepAt } = quiet;
    const [earliest, latest] = sweepWindow(postedAt, answeredAt);
    expect(sweepAt).toBeGreaterThanOrEqual(earliest);
    expect(sweepAt).toBeLessThanOrEqual(latest);
    await until(
      () => submission(form, id),
      (answer) => answer.status === 404,
      {
        // The sweep's time, then the purger's queue.
        timeoutMs: Math.max(0, sweepAt + 30_000 - Date.now()),
        intervalMs: 500,
        what: 'the quiet form’s expired submission deleted',
      },
    );
    await until(
      () => pendingSweepOf(form),
      (at) => at === undefined,
      { timeoutMs: 20_000, intervalMs: 250, what: 'the sweep removed, no post waiting' },
    );
    const summary = await summaryWhenNotConfirmed(form, 1);
    expect(summary.body.totals.stored).toBe(0);
    expect(await folderCounts(form)).toMatchObject({ pending: 0, all: 0, submissionCount: 0 });
  });

  it('on a form with retentionDays, is deleted too (its retention sweep runs the same purge), counted once', async () => {
    const { form, id, postedAt } = expiringRetained;
    await until(
      () => submission(form, id),
      (answer) => answer.status === 404,
      {
        // Its link's time, then a sweep (every 10 s here) and the stream's delay.
        timeoutMs: Math.max(0, postedAt + (TEST_CONFIRM_LINK_SECONDS + 60) * 1000 - Date.now()),
        intervalMs: 1000,
        what: 'the expired submission swept',
      },
    );
    expect(Date.now() - postedAt).toBeGreaterThanOrEqual(TEST_CONFIRM_LINK_SECONDS * 1000);
    const summary = await summaryWhenNotConfirmed(form, 1);
    expect(summary.body.notConfirmed).toBe(1);
    expect(await folderCounts(form)).toMatchObject({ pending: 0 });
    // Two purges reach it (the retention sweep's and the pending sweep's): once they are both
    // done (the pending sweep removed), it is still counted once.
    await until(
      () => pendingSweepOf(form),
      (at) => at === undefined,
      {
        timeoutMs: Math.max(
          20_000,
          postedAt + (TEST_CONFIRM_LINK_SECONDS + 60) * 1000 - Date.now(),
        ),
        intervalMs: 500,
        what: 'the sweep removed, no post waiting',
      },
    );
    const after = await api<{ notConfirmed: number }>('GET', `/v1/forms/${form.id}/summary`, {
      key: form.apiKey,
    });
    expect(after.body.notConfirmed).toBe(1);
  });
});
