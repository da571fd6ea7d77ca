import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { localGoogleKey } from '#lib/local/google-dev-key.ts';
import { SheetsClient } from '#net/google-sheets.ts';
import { GoogleTokenSource } from '#net/google-token.ts';
import { api, stack } from '#test/support/api.ts';
import { launchChromium, visit } from '#test/support/browser.ts';
import {
  connectWebhook,
  DELIVERY_WAIT_MS,
  emailsReaching,
  eventually,
  integrationDeliveriesOf,
  newReceiver,
  type SentEmail,
} from '#test/support/delivery.ts';
import { newForm, storedItems, type TestForm } from '#test/support/forms.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import { seedSuppressions } from '#test/support/suppressions.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';
import { TEST_MIN_FILL_TIME_MS } from './stack-settings.ts';

/**
 * The form's logic through the local stack (docs/forms.md#logic): a post made
 * by hand (curl, a script) carrying answers the page would have hidden, the
 * walk's verdict on required fields, routing by answer to the local inbox,
 * and prefill from the hosted page's URL into the stored answers.
 */

// Deliveries share the run's stream and queues: waits may be long under the full suite.
vi.setConfig({ testTimeout: 120_000 });

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

const when = (field: string, op: string, value?: string | string[]) => ({
  all: [{ field, op, ...(value === undefined ? {} : { value }) }],
});

/**
 * Three steps: `about` (who), `business` (skipped for a personal request,
 * with a required company), `done`. `budget` shows only to a business, and
 * `invoice` is required only over a budget of 10,000.
 */
const FIELDS = [
  {
    id: 'kind',
    type: 'radio',
    label: 'Who for',
    options: ['Personal', 'Business'],
    required: true,
  },
  { id: 'email', type: 'email', label: 'Email', required: true },
  { id: 'company', type: 'text', label: 'Company', required: true },
  { id: 'budget', type: 'number', label: 'Budget', showIf: when('company', 'notEmpty') },
  {
    id: 'invoice',
    type: 'text',
    label: 'Invoice address',
    requiredIf: when('budget', 'gt', '10000'),
  },
  { id: 'message', type: 'textarea', label: 'Message' },
];
const PAGES = [
  {
    id: 'about',
    fields: ['kind', 'email'],
    next: [{ if: when('kind', 'eq', 'Personal'), goTo: 'done' }],
  },
  { id: 'business', title: 'Your company', fields: ['company', 'budget', 'invoice'] },
  { id: 'done', fields: ['message'] },
];

async function storedSubmission(form: TestForm, id: string) {
  const read = await api('GET', `/v1/forms/${form.id}/submissions/${id}`, { key: form.apiKey });
  expect(read.status, read.text).toBe(200);
  return read.body as { data: Record<string, string>; meta: Record<string, unknown> };
}

async function post(form: TestForm, answers: Record<string, string> | [string, string][]) {
  const response = Array.isArray(answers)
    ? await submit(form.key, { form: answers, from: freshVisitor() })
    : await submit(form.key, { json: answers, from: freshVisitor() });
  expect(response.status, response.text).toBe(200);
  return response.body?.submissionId as string;
}

/** A local HTTPS receiver answering as Slack does. */
async function slackReceiver() {
  const slack = await newReceiver();
  slack.script([], { status: 200, body: 'ok' });
  receivers.push(slack);
  return slack;
}

const google = () => {
  const info = stack().google;
  if (!info) throw new Error('the test stack runs without its Google emulator');
  return { ...info, origin: new URL(info.pageUrl).origin };
};

async function newSpreadsheet(): Promise<string> {
  const response = await fetch(`${google().origin}/emulator/spreadsheets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'Logic',
      sheets: ['Responses'],
      sharedWith: [google().serviceAccount],
    }),
  });
  expect(response.status).toBeLessThan(300);
  return ((await response.json()) as { spreadsheetId: string }).spreadsheetId;
}

/** The sheet's cells as the stack's service account reads them. */
async function cellsOf(spreadsheetId: string): Promise<string[][]> {
  const key = await localGoogleKey(inject('stateDir'));
  const tokens = new GoogleTokenSource({ key, tokenUrl: `${google().origin}/token` });
  const reader = new SheetsClient({ apiUrl: google().origin, tokens });
  const answer = await reader.getValues(spreadsheetId, "'Responses'!A1:Z20");
  if (answer.kind === 'failed') throw new Error(answer.reason);
  return answer.value;
}

describe('a post made by hand, with answers the page would have hidden', () => {
  it('stores, emails, signs, posts to Slack and appends to Sheets only what was asked', async () => {
    const desk = `desk-${crypto.randomUUID()}@example.com`;
    const form = await newForm('pro', { fields: FIELDS, pages: PAGES, notifyEmail: desk });
    const hooks = await newReceiver();
    hooks.script([], { status: 200 });
    receivers.push(hooks);
    await connectWebhook(form, hooks.url);
    const slack = await slackReceiver();
    const connected = await api('PUT', `/v1/forms/${form.id}/integrations/slack`, {
      key: form.apiKey,
      body: { webhookUrl: slack.url },
    });
    expect(connected.status, connected.text).toBe(200);
    const spreadsheetId = await newSpreadsheet();
    const sheets = await api('PUT', `/v1/forms/${form.id}/integrations/sheets`, {
      key: form.apiKey,
      body: { spreadsheetId },
    });
    expect(sheets.status, sheets.text).toBe(200);

    // A personal request skips `business`: its answers (a secret among them) are dropped,
    // and the empty required `company` there does not mark the post.
    const secret = `SECRET-${crypto.randomUUID()}`;
    const id = await post(form, {
      kind: ' personal ',
      email: 'ada@example.com',
      company: secret,
      budget: '99999',
      invoice: secret,
      message: 'Hello',
      utm: 'kept: not a field of the form',
    });
    const stored = await storedSubmission(form, id);
    // The rule reads ' personal ' as Personal (case and spaces aside); the field check,
    // which matches options exactly, marks the answer as it would without logic.
    expect(stored.data).toEqual({
      kind: ' personal ',
      email: 'ada@example.com',
      message: 'Hello',
      utm: 'kept: not a field of the form',
      _invalid: JSON.stringify([{ fieldId: 'kind', reason: 'invalid_option' }]),
    });
    expect(stored.meta.endedOn).toBe('done');

    // Everything that leaves the service: none carries the dropped answers.
    const [hook] = await hooks.waitFor(1, DELIVERY_WAIT_MS);
    expect(hook!.body).toContain('ada@example.com');
    expect(hook!.body).not.toContain(secret);
    expect(hook!.body).not.toContain('99999');
    const [toSlack] = await slack.waitFor(1, DELIVERY_WAIT_MS);
    expect(toSlack!.body).toContain('Hello');
    expect(toSlack!.body).not.toContain(secret);
    const [email] = await eventually(
      () => emailsReaching(desk),
      (emails) => emails.length === 1,
    );
    expect(email!.body.text).toContain('ada@example.com');
    expect(`${email!.body.text}${email!.body.html}`).not.toContain(secret);
    await eventually(
      () => integrationDeliveriesOf(form, 'sheets'),
      (list) => list.some((d) => d.submissionId === id && d.status === 'delivered'),
    );
    const grid = JSON.stringify(await cellsOf(spreadsheetId));
    expect(grid).toContain(id);
    expect(grid).not.toContain(secret);
    const csv = await api('GET', `/v1/forms/${form.id}/export.csv`, { key: form.apiKey });
    expect(csv.status).toBe(200);
    expect(csv.text).toContain(id);
    expect(csv.text).not.toContain(secret);
  });

  it('a required field on the branch taken marks the post; on the branch not taken it does not', async () => {
    const form = await newForm('free', { fields: FIELDS, pages: PAGES });
    // Business, no company: `company` is asked and required, so it is marked. `budget` is
    // hidden without a company, so its answer goes and cannot make `invoice` required.
    const business = await post(form, [
      ['kind', 'Business'],
      ['email', 'grace@example.com'],
      ['budget', '50000'],
    ]);
    const marked = await storedSubmission(form, business);
    expect(JSON.parse(marked.data._invalid!)).toEqual([{ fieldId: 'company', reason: 'required' }]);
    expect(marked.data.budget).toBeUndefined();
    expect(marked.meta.endedOn).toBe('done');

    // With a company and a large budget, the invoice address becomes required.
    const large = await post(form, {
      kind: 'Business',
      email: 'grace@example.com',
      company: 'Acme',
      budget: '50000',
    });
    expect(JSON.parse((await storedSubmission(form, large)).data._invalid!)).toEqual([
      { fieldId: 'invoice', reason: 'required' },
    ]);
    // …and not under it (requiredIf reverts with the answer that triggered it).
    const small = await post(form, {
      kind: 'Business',
      email: 'grace@example.com',
      company: 'Acme',
      budget: '500',
    });
    expect((await storedSubmission(form, small)).data._invalid).toBeUndefined();

    const personal = await post(form, { kind: 'Personal', email: 'alan@example.com' });
    expect((await storedSubmission(form, personal)).data._invalid).toBeUndefined();
  });

  it('a post with no answers is refused; one whose every answer was not asked is marked, not clean (#8431)', async () => {
    const form = await newForm('free', { fields: FIELDS, pages: PAGES });
    const empty = await submit(form.key, { json: {}, from: freshVisitor() });
    expect([empty.status, empty.body?.error]).toEqual([422, 'empty_submission']);
    // Only an answer that was not asked (`budget` shows only with a company): it goes, and
    // the required fields the walk reached are marked.
    const id = await post(form, { budget: '5' });
    const stored = await storedSubmission(form, id);
    expect(stored.data.budget).toBeUndefined();
    expect(JSON.parse(stored.data._invalid!)).toEqual([
      { fieldId: 'kind', reason: 'required' },
      { fieldId: 'email', reason: 'required' },
      { fieldId: 'company', reason: 'required' },
    ]);
    // A form without logic behaves as before: every answer kept.
    const plain = await newForm('free', {
      fields: FIELDS.map(({ showIf, requiredIf, ...f }) => f),
    });
    const kept = await post(plain, { kind: 'Personal', email: 'a@b.co', company: 'Acme' });
    expect((await storedSubmission(plain, kept)).data).toEqual({
      kind: 'Personal',
      email: 'a@b.co',
      company: 'Acme',
    });
  });
});

describe('routing by answer (notifyRules)', () => {
  it('sends to the rules that hold, each address once, suppressed ones left out; none holds → notifyEmail', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const desk = `desk-${tag}@example.com`;
    const sales = `sales-${tag}@example.com`;
    const boss = `boss-${tag}@example.com`;
    const form = await newForm('pro', {
      fields: [
        { id: 'topic', type: 'select', options: ['Sales', 'Support', 'Press'] },
        { id: 'budget', type: 'number' },
        { id: 'message', type: 'textarea' },
      ],
      notifyEmail: desk,
    });
    const [gone] = await seedSuppressions(form.teamId, 1);
    const rules = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: {
        notifyRules: [
          { if: when('topic', 'eq', 'sales'), to: [sales] },
          {
            if: { any: [{ field: 'budget', op: 'gte', value: '10000' }] },
            to: [gone, boss, sales.toUpperCase()],
          },
        ],
      },
    });
    expect(rules.status, rules.text).toBe(200);

    await post(form, { topic: 'Sales', budget: '25000', message: `big ${tag}` });
    await post(form, { topic: 'Press', budget: '10', message: `press ${tag}` });

    const routed = await eventually(
      () => emailsReaching(sales),
      (emails) => emails.length === 1,
    );
    expect(routed[0]!.destination).toEqual({ to: [sales], cc: [boss], bcc: [] });
    expect(routed[0]!.body.text).toContain(`big ${tag}`);
    const unrouted = await eventually(
      () => emailsReaching(desk),
      (emails: SentEmail[]) => emails.length === 1,
    );
    expect(unrouted[0]!.destination.to).toEqual([desk]);
    expect(unrouted[0]!.body.text).toContain(`press ${tag}`);
    expect(await emailsReaching(gone!)).toEqual([]);

    // The change of where notifications go is in the audit trail, addresses only.
    const audit = await api('GET', '/v1/team/audit?limit=100', { key: form.apiKey });
    expect(audit.status, audit.text).toBe(200);
    const change = (audit.body.events as { action: string; details: Record<string, unknown> }[])
      .filter((event) => event.action === 'form.notify_email_changed')
      .find((event) => event.details.notifyRules === 2);
    expect(change?.details).toMatchObject({
      routedTo: `${sales}, ${gone}, ${boss}, ${sales.toUpperCase()}`,
      previousRoutedTo: '',
    });
  });

  it('needs Pro', async () => {
    const form = await newForm('free', { fields: [{ id: 'topic', type: 'text' }] });
    const refused = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { notifyRules: [{ if: when('topic', 'notEmpty'), to: ['a@example.com'] }] },
    });
    expect([refused.status, refused.body.error]).toEqual([402, 'plan_required']);
  });
});

describe('saving logic through the API', () => {
  it('refuses a backwards jump with 400 invalid_request at its path, saving nothing', async () => {
    const form = await newForm('free', { fields: FIELDS, pages: PAGES });
    const back = PAGES.map((page) =>
      page.id === 'business'
        ? { ...page, next: [{ if: when('company', 'empty'), goTo: 'about' }] }
        : page,
    );
    const refused = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { pages: back },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      ok: false,
      error: 'invalid_request',
      issues: [
        {
          path: 'pages.1.next.0.goTo',
          message: "Goes back to page 'about'; a page may only jump forward",
        },
      ],
    });
    expect(refused.body.message).toContain('pages.1.next.0.goTo');
    const read = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(read.body.pages).toEqual(PAGES);
  });
});

describe('prefill from the hosted page’s URL', () => {
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const javaScriptEnabled of [true, false]) {
    it(`lands in the stored answers when posted (${javaScriptEnabled ? 'with' : 'without'} the page's script); a value over a field's limit is not`, async () => {
      const form = await newForm('free', {
        fields: [
          { id: 'source', type: 'hidden', maxLength: 20 },
          { id: 'ref', type: 'hidden', maxLength: 5 },
          { id: 'name', type: 'text', label: 'Name', prefill: true, required: true },
          { id: 'plan', type: 'select', label: 'Plan', prefill: true, options: ['Free', 'Pro'] },
          { id: 'email', type: 'email', label: 'Email' },
        ],
      });
      const query = '?source=newsletter&ref=too-long&name=Ada%20Lovelace&plan=pro&email=x%40y.z';
      const opened = await visit(browser, `${stack().baseUrl}/f/${form.key}${query}`, {
        javaScriptEnabled,
      });
      try {
        const { page } = opened;
        expect(await page.getByLabel('Name').inputValue()).toBe('Ada Lovelace');
        expect(await page.getByLabel('Plan').inputValue()).toBe('Pro');
        // Not allowed to be prefilled: left for the visitor.
        expect(await page.getByLabel('Email').inputValue()).toBe('');
        await page.getByLabel('Email').fill('ada@example.com');
        await page.waitForTimeout(TEST_MIN_FILL_TIME_MS + 100);
        await page.getByRole('button', { name: 'Send' }).click();
        const [item] = await eventually(
          () => storedItems(form.id),
          (items) => items.length === 1,
        );
        expect((item as { data: Record<string, string> }).data).toEqual({
          source: 'newsletter',
          ref: '',
          name: 'Ada Lovelace',
          plan: 'Pro',
          email: 'ada@example.com',
        });
      } finally {
        await opened.close();
      }
    });
  }

  it('is kept by no cache: a prefilled page holds values from its address', async () => {
    const form = await newForm('free', {
      fields: [
        { id: 'customer', type: 'hidden', maxLength: 20 },
        { id: 'email', type: 'email', label: 'Email' },
      ],
    });
    const filled = await fetch(`${stack().baseUrl}/f/${form.key}?customer=c-42`);
    expect(filled.status).toBe(200);
    expect(filled.headers.get('cache-control')).toBe('no-store');
    expect(await filled.text()).toContain('value="c-42"');
  });
});
