import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, stack } from '#test/support/api.ts';
import {
  DELIVERY_WAIT_MS,
  eventually,
  integrationDeliveriesOf,
  newReceiver,
} from '#test/support/delivery.ts';
import { meterDynamoDb } from '#test/support/dynamodb-meter.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';
import type { WebhookReceiver } from '#test/support/webhook-receiver.ts';

// Deliveries share the run's stream and queues: waits may be long under the full suite.
vi.setConfig({ testTimeout: 120_000 });

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** A local HTTPS receiver standing in for Slack (`200 ok`) or Discord (`204`), as they answer. */
async function chatReceiver(kind: 'slack' | 'discord') {
  const started = await newReceiver();
  started.script([], kind === 'slack' ? { status: 200, body: 'ok' } : { status: 204 });
  receivers.push(started);
  return started;
}

const fields = [
  { id: 'name', type: 'text', label: 'Your name' },
  { id: 'message', type: 'textarea', label: 'Message' },
];

async function connect(form: TestForm, kind: string, webhookUrl: string) {
  return api('PUT', `/v1/forms/${form.id}/integrations/${kind}`, {
    key: form.apiKey,
    body: { webhookUrl },
  });
}

async function integrationsOf(form: TestForm) {
  const response = await api('GET', `/v1/forms/${form.id}/integrations`, { key: form.apiKey });
  expect(response.status, response.text).toBe(200);
  return response.body as Record<string, Record<string, unknown> | null>;
}

const deliveriesOf = integrationDeliveriesOf;

async function deliveryWhen(form: TestForm, kind: string, submissionId: string, status: string) {
  const list = await eventually(
    () => deliveriesOf(form, kind),
    (found) => found.some((d) => d.submissionId === submissionId && d.status === status),
  );
  return list.find((d) => d.submissionId === submissionId)!;
}

/** Posts answers of its own each time (the same answers twice would be a duplicate: spam). */
async function post(form: TestForm, answers?: Record<string, string>) {
  const json = answers ?? { name: 'Ada', message: `Hi ${crypto.randomUUID()}` };
  const response = await submit(form.key, { json, from: freshVisitor() });
  expect(response.status).toBe(200);
  return response.body?.submissionId as string;
}

async function tableItem(formId: string, sk: string) {
  const { documents } = await localStore();
  const { Item } = await documents.send(
    new GetCommand({
      TableName: stack().tableName,
      Key: { pk: `FORM#${formId}`, sk },
      ConsistentRead: true,
    }),
  );
  return Item;
}

const slackUrl = 'https://hooks.slack.com/services/T0001/B0001/abcdefghijklmnopqrstuvwx';
const discordUrl = 'https://discord.com/api/webhooks/123456789012345678/Tok_en-abcdefghijklmnop';

describe('connecting Slack and Discord', () => {
  it('a Free team gets 402 plan_required and nothing is saved', async () => {
    const form = await newForm('free');
    const refused = await connect(form, 'slack', slackUrl);
    expect(refused.status).toBe(402);
    expect(refused.body.error).toBe('plan_required');
    expect(await integrationsOf(form)).toMatchObject({ slack: null, discord: null });
    expect(await tableItem(form.id, 'INTEGRATION#slack')).toBeUndefined();
    const read = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(read.body.integrations).toEqual([]);
  });

  it('a URL that is not the kind’s incoming webhook is 400 naming webhookUrl; unknown kinds are 404', async () => {
    const form = await newForm('pro');
    const refused = [
      ['slack', discordUrl],
      ['slack', 'http://hooks.slack.com/services/T0/B0/x'],
      ['slack', 'https://hooks.slack.com.evil.example/services/T0/B0/x'],
      ['slack', 'https://hooks.slack.com:8443/services/T0/B0/x'],
      ['slack', 'https://hooks.slack.com/services/T0/B0/x?y=1'],
      ['slack', 'https://user:pw@hooks.slack.com/services/T0/B0/x'],
      ['slack', 'https://hooks.slack.com/workflows/T0'],
      ['discord', slackUrl],
      ['discord', 'https://discord.com/api/webhooks/not-a-number/token'],
      ['discord', 'https://discord.com/api/webhooks/123'],
      ['discord', 'https://evil.example/api/webhooks/123/token'],
      ['discord', 'not a url'],
      ['discord', `https://discord.com/api/webhooks/1/${'a'.repeat(2100)}`],
    ];
    for (const [kind, url] of refused) {
      const response = await connect(form, kind!, url!);
      expect(response.status, `${kind} ${url}`).toBe(400);
      expect(response.body.error).toBe('invalid_request');
      expect((response.body.issues as { path: string }[])[0]!.path).toBe('webhookUrl');
    }
    const wrongBody = await api('PUT', `/v1/forms/${form.id}/integrations/slack`, {
      key: form.apiKey,
      body: { url: slackUrl },
    });
    expect(wrongBody.status).toBe(400);
    expect((await connect(form, 'teams', slackUrl)).status).toBe(404);
    // Sheets takes a spreadsheet, not a URL: 400 naming its own field (test/integration/sheets.test.ts).
    const sheetsWithUrl = await connect(form, 'sheets', slackUrl);
    expect(sheetsWithUrl.status).toBe(400);
    expect((sheetsWithUrl.body.issues as { path: string }[]).map((i) => i.path)).toContain(
      'spreadsheetId',
    );
    expect(await integrationsOf(form)).toMatchObject({ slack: null, discord: null });

    expect((await connect(form, 'slack', slackUrl)).status).toBe(200);
    expect(
      (await connect(form, 'discord', 'https://discordapp.com/api/webhooks/42/abc_DEF-123')).status,
    ).toBe(200);
    // The local stack lets a receiver on 127.0.0.1 stand in, as for webhooks.
    expect((await connect(form, 'discord', 'https://127.0.0.1:8443/discord')).status).toBe(200);
  });

  it('GET answers every integration with its URL cut; the form lists the kinds connected', async () => {
    const form = await newForm('pro');
    const empty = await integrationsOf(form);
    expect(empty).toEqual({
      // The local stack's development key (docs/integrations.md#local-emulator).
      serviceAccountEmail: stack().google?.serviceAccount,
      webhook: null,
      sheets: null,
      slack: null,
      discord: null,
    });
    const connected = await connect(form, 'slack', slackUrl);
    expect(connected.body).toEqual({
      status: 'active',
      lastError: null,
      connectedAt: expect.stringMatching(/Z$/),
      lastDeliveryAt: null,
      webhookUrl: 'https://hooks.slack.com/services/T0001/B0001/abcd…',
    });
    await connect(form, 'discord', discordUrl);
    const all = await integrationsOf(form);
    expect(all.slack?.webhookUrl).toBe('https://hooks.slack.com/services/T0001/B0001/abcd…');
    expect(all.discord?.webhookUrl).toBe(
      'https://discord.com/api/webhooks/123456789012345678/Tok_…',
    );
    expect(JSON.stringify(all)).not.toContain('abcdefghijklmnopqrstuvwx');
    expect(JSON.stringify(all)).not.toContain('Tok_en-abcdefghijklmnop');
    const read = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(read.body.integrations).toEqual(['slack', 'discord']);

    expect(
      (await api('DELETE', `/v1/forms/${form.id}/integrations/slack`, { key: form.apiKey })).status,
    ).toBe(204);
    expect(
      (await api('DELETE', `/v1/forms/${form.id}/integrations/slack`, { key: form.apiKey })).status,
    ).toBe(404);
    expect(
      (await api('DELETE', `/v1/forms/${form.id}/integrations/sheets`, { key: form.apiKey }))
        .status,
    ).toBe(404);
    const after = await api('GET', `/v1/forms/${form.id}`, { key: form.apiKey });
    expect(after.body.integrations).toEqual(['discord']);
    expect(await integrationsOf(form)).toMatchObject({
      slack: null,
      discord: { status: 'active' },
    });
  });
});

describe('a stored submission reaches Slack and Discord', () => {
  it('one post: a Slack body to one receiver and a Discord body to the other, unsigned, logged delivered', async () => {
    const slack = await chatReceiver('slack');
    const discord = await chatReceiver('discord');
    const form = await newForm('pro', { fields, name: 'Contact us' });
    expect((await connect(form, 'slack', slack.url)).status).toBe(200);
    expect((await connect(form, 'discord', discord.url)).status).toBe(200);
    const submissionId = await post(form, { name: '<!channel> Ada', message: '@everyone hi' });

    const [toSlack] = await slack.waitFor(1, DELIVERY_WAIT_MS);
    const [toDiscord] = await discord.waitFor(1, DELIVERY_WAIT_MS);
    const link = `${stack().baseUrl}/app/forms/${form.id}/submissions/${submissionId}`;
    for (const hook of [toSlack!, toDiscord!]) {
      expect(hook.headers['content-type']).toBe('application/json');
      expect(hook.headers['webhook-signature']).toBeUndefined();
      expect(hook.headers['webhook-id']).toBeUndefined();
      expect(hook.body).toContain(link);
    }
    const slackBody = JSON.parse(toSlack!.body);
    expect(slackBody.text).toContain('Contact us');
    expect(Array.isArray(slackBody.blocks)).toBe(true);
    expect(toSlack!.body).toContain('&lt;!channel&gt; Ada');
    expect(slackBody.link_names).toBeUndefined();
    const discordBody = JSON.parse(toDiscord!.body);
    expect(discordBody.allowed_mentions).toEqual({ parse: [] });
    expect(discordBody.embeds[0].title).toContain('Contact us');
    expect(discordBody.embeds[0].fields.map((f: { name: string }) => f.name)).toContain(
      'Your name',
    );

    for (const kind of ['slack', 'discord']) {
      const delivery = await deliveryWhen(form, kind, submissionId, 'delivered');
      expect(delivery.attempts).toHaveLength(1);
    }
    const state = await eventually(
      () => integrationsOf(form),
      (all) => all.slack?.lastDeliveryAt !== null && all.discord?.lastDeliveryAt !== null,
    );
    expect(state.slack).toMatchObject({ status: 'active', lastError: null });
    // The webhook's own log is apart: nothing there.
    const webhookLog = await api('GET', `/v1/forms/${form.id}/webhook/deliveries`, {
      key: form.apiKey,
    });
    expect(webhookLog.body.deliveries).toEqual([]);
  });

  it('a test submission is sent too, marked as a test; spam is not', async () => {
    const slack = await chatReceiver('slack');
    const form = await newForm('pro', { fields });
    await connect(form, 'slack', slack.url);
    const test = await api('POST', `/v1/forms/${form.id}/test-submissions`, { key: form.apiKey });
    expect(test.status).toBe(201);
    const [hook] = await slack.waitFor(1, DELIVERY_WAIT_MS);
    expect(JSON.parse(hook!.body).text).toMatch(/^Test submission to /);
    await deliveryWhen(form, 'slack', test.body.submissionId as string, 'delivered');
    const spam = await post(form, {
      name: 'x',
      message: 'http://a.example http://b.example http://c.example',
    });
    const after = await post(form);
    await deliveryWhen(form, 'slack', after, 'delivered');
    expect(await deliveriesOf(form, 'slack', `?submissionId=${spam}`)).toEqual([]);
    expect(slack.received).toHaveLength(2);
  });

  it('429 then success: delivered once, after the longer Retry-After', async () => {
    const slack = await chatReceiver('slack');
    // The test schedule's first delay is 1 s (±20 %): Slack's Retry-After asks for 3.
    slack.script([{ status: 429, headers: { 'retry-after': '3' } }], { status: 200, body: 'ok' });
    const form = await newForm('pro', { fields });
    await connect(form, 'slack', slack.url);
    const submissionId = await post(form);
    const delivery = await deliveryWhen(form, 'slack', submissionId, 'delivered');
    expect(delivery.attempts.map((a) => [a.outcome, a.responseStatus])).toEqual([
      ['retrying', 429],
      ['delivered', 200],
    ]);
    expect(slack.received).toHaveLength(2);
    expect(slack.received[1]!.at - slack.received[0]!.at).toBeGreaterThanOrEqual(2_900);
  });

  it('a 400 fails at once and marks the integration failing; the next submission tries once and heals it', async () => {
    const discord = await chatReceiver('discord');
    discord.script([{ status: 400, body: '{"message":"Invalid Webhook Token"}' }], { status: 204 });
    const form = await newForm('pro', { fields });
    await connect(form, 'discord', discord.url);
    const first = await post(form);
    const failed = await deliveryWhen(form, 'discord', first, 'failed');
    expect(failed.attempts).toHaveLength(1);
    const failing = await eventually(
      () => integrationsOf(form),
      (all) => all.discord?.status === 'failing',
    );
    expect(failing.discord?.lastError).toBe('Discord answered HTTP 400');
    expect(discord.received).toHaveLength(1);

    const second = await post(form);
    const delivered = await deliveryWhen(form, 'discord', second, 'delivered');
    expect(delivered.attempts).toHaveLength(1);
    const healed = await eventually(
      () => integrationsOf(form),
      (all) => all.discord?.status === 'active',
    );
    expect(healed.discord).toMatchObject({ lastError: null, lastDeliveryAt: expect.any(String) });
    expect(discord.received).toHaveLength(2);

    // The failed one is listed by status and sent again by hand.
    const listed = await deliveriesOf(form, 'discord', '?status=failed');
    expect(listed.map((d) => d.submissionId)).toEqual([first]);
    const retried = await api(
      'POST',
      `/v1/forms/${form.id}/integrations/discord/deliveries/${first}/retry`,
      { key: form.apiKey },
    );
    expect(retried.status, retried.text).toBe(202);
    expect(retried.body.status).toBe('pending');
    const again = await deliveryWhen(form, 'discord', first, 'delivered');
    expect(again.attempts.map((a) => a.responseStatus)).toEqual([400, 204]);
    const twice = await api(
      'POST',
      `/v1/forms/${form.id}/integrations/discord/deliveries/${first}/retry`,
      { key: form.apiKey },
    );
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('delivery_not_failed');
    expect(
      (
        await api('POST', `/v1/forms/${form.id}/integrations/slack/deliveries/${first}/retry`, {
          key: form.apiKey,
        })
      ).status,
    ).toBe(404);
  });

  it('disconnecting cancels its queued messages (integration_removed)', async () => {
    const slack = await chatReceiver('slack');
    slack.script([], { status: 503 });
    const form = await newForm('pro', { fields });
    await connect(form, 'slack', slack.url);
    const submissionId = await post(form);
    await slack.waitFor(1, DELIVERY_WAIT_MS);
    const removed = await api('DELETE', `/v1/forms/${form.id}/integrations/slack`, {
      key: form.apiKey,
    });
    expect(removed.status).toBe(204);
    const cancelled = await deliveryWhen(form, 'slack', submissionId, 'cancelled');
    expect(cancelled.cancelReason).toBe('integration_removed');
    const sent = slack.received.length;
    // A post after the disconnect queues nothing for Slack.
    const later = await post(form);
    await eventually(
      async () =>
        (await api('GET', `/v1/forms/${form.id}/submissions/${later}`, { key: form.apiKey }))
          .status,
      (status) => status === 200,
    );
    expect((await deliveriesOf(form, 'slack')).map((d) => d.submissionId)).toEqual([submissionId]);
    expect(slack.received).toHaveLength(sent);
  });
});

describe('a submission moved to spam after it was queued', () => {
  it('is not sent to Slack: its retry ends cancelled (submission_spam)', async () => {
    const slack = await chatReceiver('slack');
    slack.script([{ status: 503 }], { status: 200, body: 'ok' });
    const form = await newForm('pro', { fields });
    await connect(form, 'slack', slack.url);
    const submissionId = await post(form);
    await slack.waitFor(1, DELIVERY_WAIT_MS);
    const moved = await api('PATCH', `/v1/forms/${form.id}/submissions`, {
      key: form.apiKey,
      body: { target: { ids: [submissionId] }, isSpam: true },
    });
    expect(moved.status, moved.text).toBe(200);
    const cancelled = await deliveryWhen(form, 'slack', submissionId, 'cancelled');
    expect(cancelled.cancelReason).toBe('submission_spam');
    expect(slack.received).toHaveLength(1);
  });
});

describe('duplicating and deleting a form', () => {
  it('a copy keeps Slack and Discord with the same URLs, connected afresh; posts to it reach them', async () => {
    const slack = await chatReceiver('slack');
    const form = await newForm('pro', { fields });
    await connect(form, 'slack', slack.url);
    await connect(form, 'discord', discordUrl);
    const copy = await api('POST', `/v1/forms/${form.id}/duplicate`, {
      key: form.apiKey,
      body: {},
    });
    expect(copy.status).toBe(201);
    expect(copy.body.integrations).toEqual(['slack', 'discord']);
    const copied = { ...form, id: copy.body.id as string, key: copy.body.key as string };
    expect((await tableItem(copied.id, 'INTEGRATION#slack'))?.webhookUrl).toBe(slack.url);
    expect((await tableItem(copied.id, 'INTEGRATION#discord'))?.webhookUrl).toBe(discordUrl);
    const view = await integrationsOf(copied);
    expect(view.slack).toMatchObject({ status: 'active', lastDeliveryAt: null });

    // Only the copy's post goes out: Discord's URL is not local, so post nothing to the source.
    await api('DELETE', `/v1/forms/${copied.id}/integrations/discord`, { key: form.apiKey });
    const submissionId = await post(copied);
    await deliveryWhen(copied, 'slack', submissionId, 'delivered');
    expect(slack.received).toHaveLength(1);
  });

  it('deleting the form removes its integrations and their deliveries', async () => {
    const slack = await chatReceiver('slack');
    const form = await newForm('pro', { fields });
    await connect(form, 'slack', slack.url);
    const submissionId = await post(form);
    await deliveryWhen(form, 'slack', submissionId, 'delivered');
    expect((await api('DELETE', `/v1/forms/${form.id}`, { key: form.apiKey })).status).toBe(200);
    const { documents } = await localStore();
    await eventually(
      async () =>
        (
          await documents.send(
            new QueryCommand({
              TableName: stack().tableName,
              KeyConditionExpression: 'pk = :pk',
              ExpressionAttributeValues: { ':pk': `FORM#${form.id}` },
              ConsistentRead: true,
            }),
          )
        ).Items ?? [],
      (items) => items.length === 0,
    );
  });
});

describe('the submit path', () => {
  it('writes the same units per accepted post whether integrations are connected or not', async () => {
    await localStore();
    const { dynamodb } = await import('#store/client.ts');
    const { acceptSubmission } = await import('#http/submit/pipeline.ts');
    const { meter, reset } = meterDynamoDb(dynamodb);
    const plain = await newForm('pro', { fields });
    const connected = await newForm('pro', { fields });
    await connect(connected, 'slack', (await chatReceiver('slack')).url);
    await connect(connected, 'discord', (await chatReceiver('discord')).url);
    const units = async (form: TestForm) => {
      reset();
      const outcome = await acceptSubmission(
        {
          key: form.key,
          contentType: 'application/json',
          body: Buffer.from(JSON.stringify({ name: 'Ada', message: crypto.randomUUID() })),
          ip: '203.0.113.9',
          country: 'NL',
          deviceClass: 'desktop' as const,
          userAgent: 'integrations-meter',
          origin: undefined,
          referer: undefined,
        },
        new Date(),
      );
      expect(outcome.kind).toBe('stored');
      const writes = { writes: meter.writeCapacity, calls: [...meter.calls] };
      return { ...writes, id: outcome.kind === 'stored' ? outcome.submissionId : '' };
    };
    const without = await units(plain);
    const withBoth = await units(connected);
    expect({ ...withBoth, id: '' }).toEqual({ ...without, id: '' });
    // Announced as any post: both messages delivered before the receivers close.
    await deliveryWhen(connected, 'slack', withBoth.id, 'delivered');
    await deliveryWhen(connected, 'discord', withBoth.id, 'delivered');
    expect(without.writes).toBeGreaterThan(0);
    process.stdout.write(
      `accepted post: ${without.writes} write units, with or without integrations\n`,
    );
  });
});
