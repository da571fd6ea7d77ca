import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { suppressionAddress } from '#domain/email-events.ts';
import { emailHash } from '#domain/email-index.ts';
import { suppressionKey } from '#store/keys.ts';
import { asMember, cookieOf, invitationTo, teamWithOwner, verify } from '#test/support/accounts.ts';
import { admin } from '#test/support/admin.ts';
import { api, stack } from '#test/support/api.ts';
import {
  connectWebhook,
  deliveriesOf,
  deliveryWhen,
  eventually,
  integrationDeliveriesOf,
  newReceiver,
} from '#test/support/delivery.ts';
import type { TestForm } from '#test/support/forms.ts';
import { expectCountersExact } from '#test/support/inbox.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, multipart, submit } from '#test/support/submit.ts';
import { uploadsOf } from '#test/support/uploads.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';

// Webhook deliveries share the run's stream and queues: waits may be long under the full suite.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const unique = () => crypto.randomUUID().slice(0, 8);

interface World {
  team: Awaited<ReturnType<typeof teamWithOwner>>;
  forms: { byField: TestForm; byReplyTo: TestForm; byAnswer: TestForm };
  /** The person's address as they typed it once: mixed case. */
  person: string;
  /** The person's submissions, by form. */
  theirs: { byField: string; byReplyTo: string; byAnswer: string };
  /** Submissions of the same forms that are not theirs. */
  others: string[];
}
let world: World;
let hooks: WebhookReceiver;

async function teamForm(team: World['team'], settings: Record<string, unknown>): Promise<TestForm> {
  const created = await api('POST', '/v1/forms', {
    key: team.apiKey,
    body: { name: `Form ${unique()}`, type: 'custom' },
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  if (Object.keys(settings).length > 0) {
    const patched = await api('PATCH', `/v1/forms/${id}`, { key: team.apiKey, body: settings });
    expect(patched.status, patched.text).toBe(200);
  }
  return { id, key: created.body.key as string, teamId: team.teamId, apiKey: team.apiKey };
}

async function post(form: TestForm, answers: Record<string, string>): Promise<string> {
  const response = await submit(form.key, { json: answers, from: freshVisitor() });
  expect(response.status, response.text).toBe(200);
  return response.body?.submissionId as string;
}

const erase = (email: string, key = world.team.apiKey) =>
  api<{ count: number; forms: { id: string; name: string; count: number }[] }>(
    'POST',
    '/v1/privacy/erasures',
    { key, body: { email } },
  );

const exportOf = (email: string) =>
  api<{
    submissions: { id: string; formId: string; formName: string; files: string[] }[];
    suppressed: Record<string, unknown> | null;
  }>('GET', `/v1/privacy/submissions?email=${encodeURIComponent(email)}`, {
    key: world.team.apiKey,
  });

const stillThere = async (form: TestForm, id: string) =>
  (await api('GET', `/v1/forms/${form.id}/submissions/${id}`, { key: form.apiKey })).status;

beforeAll(async () => {
  hooks = await newReceiver();
  const team = await teamWithOwner('pro');
  const person = `Ada.${unique()}@Example.com`;
  const someoneElse = `bob-${unique()}@example.com`;
  const byField = await teamForm(team, {
    allowUploads: true,
    fields: [
      { id: 'email', type: 'email', label: 'Email' },
      { id: 'message', type: 'textarea', label: 'Message' },
    ],
  });
  const byReplyTo = await teamForm(team, {});
  const byAnswer = await teamForm(team, {});
  await connectWebhook(byField, hooks.url);
  // A Slack integration too, the same receiver standing in (the local stack takes 127.0.0.1).
  const slack = await api('PUT', `/v1/forms/${byField.id}/integrations/slack`, {
    key: byField.apiKey,
    body: { webhookUrl: hooks.url },
  });
  expect(slack.status, slack.text).toBe(200);

  // Their address in an email field (with a file), typed in capitals with spaces around.
  const upload = await multipart((f) => {
    f.append('email', `  ${person.toUpperCase()} `);
    f.append('message', 'please call me');
    f.append('cv', new Blob([Buffer.from('my cv')], { type: 'text/plain' }), 'cv.txt');
  });
  const withFile = await submit(byField.key, { ...upload, from: freshVisitor() });
  expect(withFile.status, withFile.text).toBe(200);
  const theirs = {
    byField: withFile.body?.submissionId as string,
    byReplyTo: await post(byReplyTo, { _replyto: person, message: 'reply to me' }),
    byAnswer: await post(byAnswer, { contact: person.toLowerCase(), note: 'plain answer' }),
  };
  const others = [
    await post(byField, { email: someoneElse, message: 'not them' }),
    // Their address inside a longer answer is not an answer that is their address.
    await post(byReplyTo, { message: `write to ${person} please` }),
    await post(byAnswer, { contact: someoneElse }),
  ];
  world = { team, forms: { byField, byReplyTo, byAnswer }, person, theirs, others };
});

afterAll(async () => {
  await hooks?.close();
});

describe('GET /v1/privacy/submissions?email=', () => {
  it('answers exactly the submissions holding the address, across forms, with file names', async () => {
    const response = await exportOf(`  ${world.person.toLowerCase()}`);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename=".+\.json"$/,
    );
    const found = response.body.submissions;
    expect(found.map((s) => s.id).sort()).toEqual(Object.values(world.theirs).sort());
    const withFile = found.find((s) => s.id === world.theirs.byField)!;
    expect(withFile.formId).toBe(world.forms.byField.id);
    expect(withFile.formName).toMatch(/^Form /);
    expect(withFile.files).toEqual(['cv.txt']);
  });

  it('ends with the team’s suppression entry of the address’s mailbox (any spelling), null when it is not on the list', async () => {
    expect((await exportOf(world.person)).body.suppressed).toBeNull();
    // As the email event worker writes it (lambdas/store/suppressions.ts), for a +tag spelling.
    const [local, domain] = world.person.split('@');
    const spelled = `${local}+news@${domain}`.toLowerCase();
    const entry = {
      email: spelled,
      reason: 'complaint',
      at: '2026-11-26T10:00:00.000Z',
      formId: world.forms.byField.id,
      submissionId: world.theirs.byField,
    };
    const { documents } = await localStore();
    await documents.send(
      new PutCommand({
        TableName: stack().tableName,
        Item: {
          ...suppressionKey(world.team.teamId, suppressionAddress(spelled)),
          entity: 'suppression',
          ...entry,
          sesAddresses: [spelled],
        },
      }),
    );
    const exported = await exportOf(world.person);
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.suppressed).toEqual({ ...entry, bounceType: null });
    expect(exported.body.submissions).toHaveLength(3);
  });

  it('refuses a text that is not an address with 400 invalid_request', async () => {
    const response = await exportOf('not an address');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'invalid_request' });
  });
});

describe('POST /v1/privacy/erasures', () => {
  it('a member gets 403 owner_only; the owner’s session needs its CSRF proof', async () => {
    const email = `m-${unique()}@example.com`;
    const invited = await api('POST', '/v1/team/members', {
      key: world.team.apiKey,
      body: { email },
    });
    expect(invited.status, invited.text).toBe(201);
    const { token } = await invitationTo(email);
    const member = cookieOf(await verify({ token }));
    const refused = await asMember(member, 'POST', '/v1/privacy/erasures', {
      body: { email: world.person },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'owner_only' });
    const exported = await asMember(
      member,
      'GET',
      `/v1/privacy/submissions?email=${encodeURIComponent(world.person)}`,
    );
    expect(exported.status).toBe(403);
    // From another site, a session's write is refused before anything is read.
    const crossSite = await asMember(member, 'POST', '/v1/privacy/erasures', {
      body: { email: world.person },
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body?.error).not.toBe('owner_only');
    // Nothing was erased.
    expect(await stillThere(world.forms.byAnswer, world.theirs.byAnswer)).toBe(200);
  });

  it('deletes them with their files and delivery records, leaves the rest, keeps counters exact', async () => {
    const { byField, byReplyTo, byAnswer } = world.forms;
    // The webhook's delivery of their submission is in the log before the erase.
    await deliveryWhen(byField, world.theirs.byField, 'delivered');
    await eventually(
      () => integrationDeliveriesOf(byField, 'slack'),
      (list) =>
        list.some((d) => d.submissionId === world.theirs.byField && d.status === 'delivered'),
    );
    expect(await uploadsOf(byField.id)).toHaveLength(1);

    const erased = await erase(world.person.toUpperCase());
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.count).toBe(3);
    expect(erased.body.forms.map((f) => [f.id, f.count]).sort()).toEqual(
      [byField.id, byReplyTo.id, byAnswer.id].map((id) => [id, 1]).sort(),
    );

    expect(await stillThere(byField, world.theirs.byField)).toBe(404);
    expect(await stillThere(byReplyTo, world.theirs.byReplyTo)).toBe(404);
    expect(await stillThere(byAnswer, world.theirs.byAnswer)).toBe(404);
    const forms = [byField, byReplyTo, byAnswer];
    for (const [i, id] of world.others.entries()) {
      expect(await stillThere(forms[i]!, id), `other ${i}`).toBe(200);
    }
    expect(await uploadsOf(byField.id)).toEqual([]);
    const deliveries = await deliveriesOf(byField);
    expect(deliveries.map((d) => d.submissionId)).not.toContain(world.theirs.byField);
    const toSlack = await integrationDeliveriesOf(byField, 'slack');
    expect(toSlack.map((d) => d.submissionId)).not.toContain(world.theirs.byField);
    expect(toSlack.map((d) => d.submissionId)).toContain(world.others[0]);
    for (const form of forms) await expectCountersExact(form.id);

    // Idempotent: nothing is left to find.
    const again = await erase(world.person);
    expect(again.body).toEqual({ count: 0, forms: [] });
    const after = await exportOf(world.person);
    expect(after.body.submissions).toEqual([]);
    // The suppression entry stays: it keeps the team's forms from emailing them again.
    expect(after.body.suppressed).toMatchObject({ reason: 'complaint' });
  });

  it('records erase and export in the audit trail by a keyed hash, never the address', async () => {
    const trail = await api<{ events: { action: string; details: Record<string, unknown> }[] }>(
      'GET',
      '/v1/team/audit',
      { key: world.team.apiKey },
    );
    expect(trail.status, trail.text).toBe(200);
    const privacy = trail.body.events.filter((e) => e.action.startsWith('privacy.'));
    expect(privacy.map((e) => e.action)).toContain('privacy.erased');
    expect(privacy.map((e) => e.action)).toContain('privacy.exported');
    for (const event of privacy) expect(event.details.emailHash).toMatch(/^[0-9a-f]{32}$/);
    // One address, one hash, whatever its case.
    expect(new Set(privacy.map((e) => e.details.emailHash)).size).toBe(1);
    expect(trail.text.toLowerCase()).not.toContain(world.person.toLowerCase());
    expect(trail.text.toLowerCase()).not.toContain(world.person.split('@')[0]!.toLowerCase());
  });
});

describe('npm run admin -- privacy reindex --team ID', () => {
  /** Removes the index entries of an address, as for a submission stored before the index. */
  async function forgetIndex(teamId: string, email: string): Promise<number> {
    const { documents } = await localStore();
    const secret = process.env.KEYED_HASH_SECRET!;
    const pk = `TEAM#${teamId}#EMAIL#${emailHash(secret, teamId, email)}`;
    const { Items = [] } = await documents.send(
      new QueryCommand({
        TableName: stack().tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
      }),
    );
    for (const item of Items) {
      await documents.send(
        new DeleteCommand({ TableName: stack().tableName, Key: { pk: item.pk, sk: item.sk } }),
      );
    }
    return Items.length;
  }

  it('indexes older submissions, so export and erase find them; a second run changes nothing', async () => {
    const team = await teamWithOwner('pro');
    const form = await teamForm(team, {});
    const email = `old-${unique()}@example.com`;
    const id = await post(form, { _replyto: email, message: 'from before the index' });
    await post(form, { message: 'no address' });
    expect(await forgetIndex(team.teamId, email)).toBe(1);
    const found = () =>
      api<{ submissions: { id: string }[] }>(
        'GET',
        `/v1/privacy/submissions?email=${encodeURIComponent(email)}`,
        { key: team.apiKey },
      );
    expect((await found()).body.submissions).toEqual([]);

    const first = await admin('privacy', 'reindex', '--team', team.teamId);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      teamId: team.teamId,
      forms: 1,
      submissions: 2,
      entries: 1,
      removed: 0,
      marks: { rekeyed: 0, removed: 0 },
    });
    expect((await found()).body.submissions.map((s) => s.id)).toEqual([id]);
    const again = await admin('privacy', 'reindex', '--team', team.teamId);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(first.stdout));
    expect((await found()).body.submissions.map((s) => s.id)).toEqual([id]);

    const erased = await api('POST', '/v1/privacy/erasures', {
      key: team.apiKey,
      body: { email },
    });
    expect(erased.body).toMatchObject({ count: 1 });
    await expectCountersExact(form.id);
  });

  it('an erase drops the entries of submissions deleted another way (a bulk delete)', async () => {
    const team = await teamWithOwner('pro');
    const form = await teamForm(team, {});
    const email = `gone-${unique()}@example.com`;
    const id = await post(form, { contact: email });
    const deleted = await api('DELETE', `/v1/forms/${form.id}/submissions`, {
      key: team.apiKey,
      body: { target: { ids: [id] } },
    });
    expect(deleted.body).toEqual({ count: 1 });
    const erased = await api('POST', '/v1/privacy/erasures', {
      key: team.apiKey,
      body: { email },
    });
    expect(erased.body).toEqual({ count: 0, forms: [] });
    expect(await forgetIndex(team.teamId, email)).toBe(0);
  });

  it('refuses a team that does not exist', async () => {
    const result = await admin('privacy', 'reindex', '--team', crypto.randomUUID());
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/no team/);
  });
});
