import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { type EmailMark, emailOutcome } from '#domain/email-outcomes.ts';
import { api, stack } from '#test/support/api.ts';
import { emailsTo, eventually } from '#test/support/delivery.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

// Deliveries share the run's stream and queues: waits may be long under the full suite.
vi.setConfig({ testTimeout: 120_000 });

/**
 * Issue 33, item 2: what SES says became of each email, and the team's
 * suppression list, through the local stack: the SES emulator's front plays
 * the mailbox simulator (lib/local/emulators/ses-simulator.ts) and its
 * events go through the same queue and worker as SES's do when deployed.
 */

const unique = () => crypto.randomUUID().slice(0, 8);
/** A simulator mailbox of this test alone (`+label` is how AWS tells tests apart). */
const simulator = (box: 'bounce' | 'complaint' | 'success') =>
  `${box}+${unique()}@simulator.amazonses.com`;

async function item(pk: string, sk: string): Promise<Record<string, unknown> | undefined> {
  const { documents } = await localStore();
  const { Item } = await documents.send(
    new GetCommand({ TableName: stack().tableName, Key: { pk, sk }, ConsistentRead: true }),
  );
  return Item;
}
const emailRecord = (form: TestForm, submissionId: string, kind: string) =>
  item(`FORM#${form.id}`, `EMAIL#${submissionId}#${kind}`);
/** The entry of the mailbox `address` reaches (+tags folded, as the list compares them). */
const suppression = (teamId: string, address: string) =>
  item(`TEAM#${teamId}`, `SUPPRESSED#${address.toLowerCase().replace(/\+[^@]*@/, '@')}`);

async function post(form: TestForm, json: Record<string, unknown>): Promise<string> {
  const response = await submit(form.key, { json, from: freshVisitor() });
  expect(response.status, response.text).toBe(200);
  return response.body?.submissionId as string;
}

/** The email's status as the API says it: its To's fate (docs/delivery.md#what-became-of-an-email). */
const statusOf = (record: Record<string, unknown> | undefined) =>
  emailOutcome(record as EmailMark | undefined)?.status;
/** The fate recorded for one recipient of the email. */
const fateOf = (record: Record<string, unknown> | undefined, address: string) =>
  (record?.recipientFates as Record<string, Record<string, unknown>> | undefined)?.[
    address.toLowerCase()
  ];

/** Waits until the email record holds `done`. */
const recordUntil = (
  form: TestForm,
  submissionId: string,
  kind: string,
  done: (record: Record<string, unknown> | undefined) => boolean,
) => eventually(() => emailRecord(form, submissionId, kind), done);

describe('a permanent bounce', () => {
  it('records the auto-reply bounced, and the next post naming the address sends it nothing (suppressed)', async () => {
    const owner = `owner-${unique()}@example.com`;
    const form = await newForm('pro', { notifyEmail: owner, autoreplyEnabled: true });
    const bouncing = simulator('bounce');

    const first = await post(form, { email: bouncing, message: 'one' });
    const bounced = await recordUntil(form, first, 'autoreply', (r) => statusOf(r) === 'bounced');
    expect(fateOf(bounced, bouncing)).toMatchObject({
      fate: 'bounced',
      bounceType: 'Permanent',
      bounceSubType: 'General',
    });
    // The owner's notification of the same post was delivered.
    await recordUntil(form, first, 'notification', (r) => statusOf(r) === 'delivered');
    await eventually(
      () => suppression(form.teamId, bouncing),
      (entry) => entry !== undefined,
    );
    expect(await suppression(form.teamId, bouncing)).toMatchObject({
      email: bouncing.toLowerCase(),
      reason: 'bounce',
      bounceType: 'Permanent',
      formId: form.id,
      submissionId: first,
    });

    const second = await post(form, { email: bouncing, message: 'two' });
    const refused = await recordUntil(form, second, 'autoreply', (r) => r?.refusedAt !== undefined);
    expect(refused).toMatchObject({ refusedBy: 'suppressed' });
    expect(refused?.sentAt).toBeUndefined();
    // One email ever reached the address: the first auto-reply.
    expect(await emailsTo(bouncing)).toHaveLength(1);
    // The owner still hears of the second post.
    await recordUntil(form, second, 'notification', (r) => r?.sentAt !== undefined);
  });

  it('is one team’s: another team’s form still emails the address', async () => {
    // Notifications, not auto-replies: auto-replies to one mailbox are limited to 3 an hour
    // across the deployment (+labels folded), and every test here shares the simulator's.
    const bouncing = simulator('bounce');
    const first = await newForm('pro', { notifyEmail: bouncing });
    await post(first, { message: 'one' });
    await eventually(
      () => suppression(first.teamId, bouncing),
      (entry) => entry !== undefined,
    );

    const other = await newForm('pro', { notifyEmail: bouncing });
    const otherId = await post(other, { message: 'two' });
    const record = await recordUntil(
      other,
      otherId,
      'notification',
      (r) => statusOf(r) === 'bounced',
    );
    expect(record?.refusedBy).toBeUndefined();
    expect(await emailsTo(bouncing)).toHaveLength(2);
  });
});

describe('a complaint', () => {
  it('records the notification complained, suppresses the address, and the next notification is not sent', async () => {
    const complaining = simulator('complaint');
    const form = await newForm('pro', { notifyEmail: complaining });

    const first = await post(form, { message: 'one' });
    // Delivered first, then the complaint outranks it.
    await recordUntil(form, first, 'notification', (r) => statusOf(r) === 'complained');
    const entry = await eventually(
      () => suppression(form.teamId, complaining),
      (found) => found !== undefined,
    );
    expect(entry).toMatchObject({ reason: 'complaint' });

    const second = await post(form, { message: 'two' });
    const refused = await recordUntil(
      form,
      second,
      'notification',
      (r) => r?.refusedAt !== undefined,
    );
    expect(refused).toMatchObject({ refusedBy: 'suppressed' });
    expect(await emailsTo(complaining)).toHaveLength(1);
  });
});

describe('the suppression list compares mailboxes', () => {
  it('a suppressed To gives its place to the first Cc; another +label of the same mailbox is suppressed too', async () => {
    const bouncing = simulator('bounce');
    const colleague = `colleague-${unique()}@example.com`;
    const form = await newForm('pro', { notifyEmail: bouncing, notifyCc: [colleague] });
    const first = await post(form, { message: 'one' });
    await recordUntil(form, first, 'notification', (r) => statusOf(r) === 'bounced');
    await eventually(
      () => suppression(form.teamId, 'bounce@simulator.amazonses.com'),
      (entry) => entry !== undefined,
    );
    const second = await post(form, { message: 'two' });
    await recordUntil(form, second, 'notification', (r) => r?.sentAt !== undefined);
    const toColleague = await eventually(
      () => emailsTo(colleague),
      (list) => list.length >= 1,
    );
    expect(toColleague.at(-1)?.destination).toEqual({ to: [colleague], cc: [], bcc: [] });
    expect(await emailsTo(bouncing)).toHaveLength(1);

    // bounce+other@… reaches the same mailbox (+tags folded): suppressed as well.
    const sameMailbox = `bounce+${unique()}@simulator.amazonses.com`;
    const patched = await api('PATCH', `/v1/forms/${form.id}`, {
      key: form.apiKey,
      body: { notifyEmail: sameMailbox, notifyCc: [] },
    });
    expect(patched.status, patched.text).toBe(200);
    const third = await post(form, { message: 'three' });
    const refused = await recordUntil(
      form,
      third,
      'notification',
      (r) => r?.refusedAt !== undefined,
    );
    expect(refused).toMatchObject({ refusedBy: 'suppressed' });
    expect(await emailsTo(sameMailbox)).toEqual([]);
  });
});

describe('fates per recipient', () => {
  it('a notification delivered to its To and bounced by a Cc reads delivered, with the Cc bounced in its recipients; the Cc alone is suppressed', async () => {
    const owner = simulator('success');
    const bouncingCc = simulator('bounce');
    const quietCc = `colleague-${unique()}@example.com`;
    const form = await newForm('pro', { notifyEmail: owner, notifyCc: [bouncingCc, quietCc] });
    const id = await post(form, { message: 'hello' });
    const record = await recordUntil(
      form,
      id,
      'notification',
      (r) => fateOf(r, bouncingCc) !== undefined && fateOf(r, quietCc) !== undefined,
    );
    expect(record?.sentTo).toEqual([owner, bouncingCc, quietCc]);
    await eventually(
      () => suppression(form.teamId, bouncingCc),
      (entry) => entry !== undefined,
    );
    const read = await api('GET', `/v1/forms/${form.id}/submissions/${id}`, { key: form.apiKey });
    expect(read.status, read.text).toBe(200);
    expect((read.body.emails as { notification: unknown }).notification).toEqual({
      status: 'delivered',
      at: expect.any(String),
      bounceType: null,
      recipients: [
        { email: owner, status: 'delivered', at: expect.any(String), bounceType: null },
        { email: bouncingCc, status: 'bounced', at: expect.any(String), bounceType: 'Permanent' },
        { email: quietCc, status: 'delivered', at: expect.any(String), bounceType: null },
      ],
    });
    expect(await suppression(form.teamId, owner)).toBeUndefined();
    expect(await suppression(form.teamId, quietCc)).toBeUndefined();
  });
});

describe('a delivered email', () => {
  it('records delivered and suppresses nothing', async () => {
    const fine = simulator('success');
    const form = await newForm('pro', { notifyEmail: fine });
    const id = await post(form, { message: 'hello' });
    const record = await recordUntil(form, id, 'notification', (r) => statusOf(r) === 'delivered');
    expect(fateOf(record, fine)).toMatchObject({ fate: 'delivered', at: expect.any(String) });
    expect(await suppression(form.teamId, fine)).toBeUndefined();
  });
});

describe('what the owner sees (issue 33, item 5) and lifting an address', () => {
  const submissionOf = (form: TestForm, id: string) =>
    api('GET', `/v1/forms/${form.id}/submissions/${id}`, { key: form.apiKey });

  it('GET a submission says what became of its emails; the list shows the address; lifting it sends again', async () => {
    // The owner's own address bounces (a typo in notifyEmail): notifications, which no hourly
    // limit holds back, so the path can be walked twice.
    const bouncing = simulator('bounce');
    const form = await newForm('pro', { notifyEmail: bouncing });
    const first = await post(form, { message: 'one' });
    await recordUntil(form, first, 'notification', (r) => statusOf(r) === 'bounced');
    await eventually(
      () => suppression(form.teamId, bouncing),
      (entry) => entry !== undefined,
    );

    const read = await submissionOf(form, first);
    expect(read.status, read.text).toBe(200);
    expect(read.body.emails).toEqual({
      notification: {
        status: 'bounced',
        at: expect.any(String),
        bounceType: 'Permanent',
        recipients: [
          { email: bouncing, status: 'bounced', at: expect.any(String), bounceType: 'Permanent' },
        ],
      },
      autoreply: null,
    });

    const list = await api('GET', '/v1/team/suppressions', { key: form.apiKey });
    expect(list.status, list.text).toBe(200);
    expect(list.body.suppressions).toEqual([
      {
        email: bouncing.toLowerCase(),
        reason: 'bounce',
        bounceType: 'Permanent',
        at: expect.any(String),
        formId: form.id,
        submissionId: first,
      },
    ]);
    // Another team's owner never sees it.
    const other = await newForm('pro');
    const theirs = await api('GET', '/v1/team/suppressions', { key: other.apiKey });
    expect(theirs.body.suppressions).toEqual([]);
    expect(
      (
        await api('DELETE', `/v1/team/suppressions/${encodeURIComponent(bouncing)}`, {
          key: other.apiKey,
        })
      ).status,
    ).toBe(404);

    const second = await post(form, { message: 'two' });
    await recordUntil(form, second, 'notification', (r) => r?.refusedAt !== undefined);
    expect((await submissionOf(form, second)).body.emails).toMatchObject({
      notification: { status: 'suppressed', bounceType: null },
    });

    // Lifted (the address in any case, percent-encoded): the next post's notification goes out.
    const lifted = await api(
      'DELETE',
      `/v1/team/suppressions/${encodeURIComponent(bouncing.toUpperCase())}`,
      { key: form.apiKey },
    );
    expect(lifted.status, lifted.text).toBe(200);
    expect(
      (await api('GET', '/v1/team/suppressions', { key: form.apiKey })).body.suppressions,
    ).toEqual([]);
    const audit = await api('GET', '/v1/team/audit?limit=5', { key: form.apiKey });
    const event = (
      audit.body.events as { action: string; details: Record<string, unknown> }[]
    ).find((each) => each.action === 'suppression.lifted');
    expect(event?.details).toEqual({ emailHash: expect.stringMatching(/^[0-9a-f]{16,}$/) });
    expect(JSON.stringify(event)).not.toContain('@');

    const third = await post(form, { message: 'three' });
    await recordUntil(form, third, 'notification', (r) => r?.sentAt !== undefined);
    expect(await emailsTo(bouncing)).toHaveLength(2);
  });

  it('a submission with no email due says null for both', async () => {
    const form = await newForm('free');
    const id = await post(form, { message: 'quiet' });
    // Free: the owner notification is due; no auto-reply on Free.
    await recordUntil(form, id, 'notification', (r) => r?.sentAt !== undefined);
    const read = await submissionOf(form, id);
    expect(read.body.emails).toMatchObject({
      autoreply: null,
      notification: { status: expect.stringMatching(/^(sent|delivered)$/) },
    });
  });
});

describe('lifting an address lifts SES’s own entry too (the team’s tenant list)', () => {
  interface TenantView {
    TenantName: string;
    suppressed: { EmailAddress: string; Reason: string }[];
  }
  interface Call {
    operation: string;
    TenantName?: string;
    EmailAddress?: string;
  }
  const emulator = async <T>(path: string, init?: RequestInit): Promise<T> =>
    (await (await fetch(new URL(path, stack().mailUrl), init)).json()) as T;
  const tenantOf = async (teamId: string) =>
    (await emulator<{ tenants: TenantView[] }>('/tenants')).tenants.find(
      (tenant) => tenant.TenantName === `team-${teamId}`,
    );
  const liftsOf = async (address: string) =>
    (await emulator<{ calls: Call[] }>('/calls')).calls.filter(
      (call) => call.operation === 'DeleteSuppressedDestination' && call.EmailAddress === address,
    );

  /** A notification to a bouncing address with capitals (its domain is saved lower-cased), suppressed by us and by SES. */
  async function suppressedMixedCase() {
    const spelled = `Bounce+Case${unique()}@simulator.amazonses.com`;
    const form = await newForm('pro', { notifyEmail: spelled });
    await post(form, { message: 'one' });
    const entry = await eventually(
      () => suppression(form.teamId, spelled),
      (found) => found !== undefined,
    );
    // Kept as SES's event spelled it, beside the folded address the list shows.
    expect(entry).toMatchObject({ email: spelled.toLowerCase() });
    expect([...((entry?.sesAddresses as Set<string> | undefined) ?? [])]).toEqual([spelled]);
    const tenant = await eventually(
      () => tenantOf(form.teamId),
      (found) => (found?.suppressed.length ?? 0) > 0,
    );
    expect(tenant?.suppressed).toEqual([{ EmailAddress: spelled, Reason: 'BOUNCE' }]);
    return { form, spelled };
  }

  it('DELETE (any case) sends DeleteSuppressedDestination with the team’s TenantName and SES’s exact spelling', async () => {
    const { form, spelled } = await suppressedMixedCase();
    const lifted = await api(
      'DELETE',
      `/v1/team/suppressions/${encodeURIComponent(spelled.toLowerCase())}`,
      { key: form.apiKey },
    );
    expect(lifted.status, lifted.text).toBe(200);
    expect(await liftsOf(spelled)).toEqual([
      expect.objectContaining({ TenantName: `team-${form.teamId}`, EmailAddress: spelled }),
    ]);
    expect((await tenantOf(form.teamId))?.suppressed).toEqual([]);
  });

  it('two spellings of one mailbox SES suppressed apart (To and Cc of one notification): the lift sends each', async () => {
    const label = unique();
    const to = `Bounce+To${label}@simulator.amazonses.com`;
    const cc = `Bounce+Cc${label}@simulator.amazonses.com`;
    const form = await newForm('pro', { notifyEmail: to, notifyCc: [cc] });
    await post(form, { message: 'one' });
    // One entry for the mailbox (+tags folded), both spellings on it and on SES's list.
    const entry = await eventually(
      () => suppression(form.teamId, to),
      (found) => (found?.sesAddresses as Set<string> | undefined)?.size === 2,
    );
    expect([...((entry?.sesAddresses as Set<string> | undefined) ?? [])].sort()).toEqual(
      [cc, to].sort(),
    );
    await eventually(
      () => tenantOf(form.teamId),
      (found) => found?.suppressed.length === 2,
    );
    const lifted = await api('DELETE', `/v1/team/suppressions/${encodeURIComponent(to)}`, {
      key: form.apiKey,
    });
    expect(lifted.status, lifted.text).toBe(200);
    expect(await liftsOf(to)).toHaveLength(1);
    expect(await liftsOf(cc)).toHaveLength(1);
    expect((await tenantOf(form.teamId))?.suppressed).toEqual([]);
  });

  it('SES cannot be reached (the emulator answers 503): our entry is lifted all the same, 200', async () => {
    const { form, spelled } = await suppressedMixedCase();
    // Failing for this team's tenant only: other files lift suppressions meanwhile.
    const faults = (failing: boolean) =>
      emulator('/faults', {
        method: 'POST',
        body: JSON.stringify({
          DeleteSuppressedDestination: failing ? `team-${form.teamId}` : false,
        }),
      });
    await faults(true);
    try {
      const lifted = await api('DELETE', `/v1/team/suppressions/${encodeURIComponent(spelled)}`, {
        key: form.apiKey,
      });
      expect(lifted.status, lifted.text).toBe(200);
    } finally {
      await faults(false);
    }
    // Tried (the client's two attempts), and SES's entry stays.
    expect((await liftsOf(spelled)).length).toBeGreaterThanOrEqual(1);
    expect((await tenantOf(form.teamId))?.suppressed).toHaveLength(1);
    expect(
      (await api('GET', '/v1/team/suppressions', { key: form.apiKey })).body.suppressions,
    ).toEqual([]);
  });
});
