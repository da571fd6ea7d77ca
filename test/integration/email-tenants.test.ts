import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { api, stack } from '#test/support/api.ts';
import { eventually } from '#test/support/delivery.ts';
import { newForm } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

vi.setConfig({ testTimeout: 120_000 });

/**
 * Issue 33, item 3: each team sends as its own SES tenant, so one team's
 * bounces and complaints pause only it (docs/delivery.md#one-team-cannot-pause-everyones-mail).
 * The local SES emulator answers the tenant calls as SES does and records them.
 */
interface Tenant {
  TenantName: string;
  TenantArn: string;
  resources: string[];
  reputationPolicy?: string;
  SuppressionAttributes?: { SuppressedReasons: string[]; SuppressionScope: string };
  sent: number;
}

const tenants = async (): Promise<Tenant[]> =>
  ((await (await fetch(new URL('/tenants', stack().mailUrl))).json()) as { tenants: Tenant[] })
    .tenants;

async function teamItem(teamId: string) {
  const { documents } = await localStore();
  const { Item } = await documents.send(
    new GetCommand({
      TableName: stack().tableName,
      Key: { pk: `TEAM#${teamId}`, sk: 'TEAM' },
      ConsistentRead: true,
    }),
  );
  return Item;
}

interface Call {
  operation: string;
  TenantName?: string;
  refused?: string;
}
const calls = async (): Promise<Call[]> =>
  ((await (await fetch(new URL('/calls', stack().mailUrl))).json()) as { calls: Call[] }).calls;

/** The notification's claim mark: present from the worker's claim until it sent or gave it back. */
async function emailMark(formId: string, submissionId: string) {
  const { documents } = await localStore();
  const { Item } = await documents.send(
    new GetCommand({
      TableName: stack().tableName,
      Key: { pk: `FORM#${formId}`, sk: `EMAIL#${submissionId}#notification` },
      ConsistentRead: true,
    }),
  );
  return Item;
}

async function post(key: string, message: string) {
  const response = await submit(key, { json: { message }, from: freshVisitor() });
  expect(response.status, response.text).toBe(200);
}

describe('a team’s SES tenant', () => {
  it('is made on the team’s first email, associated and under the standard policy, then reused', async () => {
    const form = await newForm('pro', {
      notifyEmail: `owner-${crypto.randomUUID().slice(0, 8)}@example.com`,
    });
    const name = `team-${form.teamId}`;
    expect((await tenants()).some((tenant) => tenant.TenantName === name)).toBe(false);

    await post(form.key, 'one');
    const made = await eventually(
      async () => (await tenants()).find((tenant) => tenant.TenantName === name),
      (tenant) => (tenant?.sent ?? 0) >= 1,
    );
    expect(made?.resources).toEqual([
      expect.stringMatching(/:identity\/example\.com$/),
      expect.stringMatching(/:configuration-set\/form-service-local$/),
    ]);
    expect(made?.reputationPolicy).toMatch(/:aws:reputation-policy\/standard$/);
    expect(made?.SuppressionAttributes).toEqual({
      SuppressedReasons: ['BOUNCE', 'COMPLAINT'],
      SuppressionScope: 'TENANT',
    });
    expect((await teamItem(form.teamId))?.sesTenant).toBe(name);

    await post(form.key, 'two');
    const again = await eventually(
      async () => (await tenants()).find((tenant) => tenant.TenantName === name),
      (tenant) => (tenant?.sent ?? 0) >= 2,
    );
    expect(again?.TenantArn).toBe(made?.TenantArn);
    expect((await tenants()).filter((tenant) => tenant.TenantName === name)).toHaveLength(1);
  });

  it('another team sends as a tenant of its own', async () => {
    const first = await newForm('pro');
    const second = await newForm('pro');
    await post(first.key, 'a');
    await post(second.key, 'b');
    const both = await eventually(tenants, (list) =>
      [first, second].every((form) =>
        list.some((tenant) => tenant.TenantName === `team-${form.teamId}` && tenant.sent >= 1),
      ),
    );
    const arns = both
      .filter((tenant) =>
        [first.teamId, second.teamId].some((id) => tenant.TenantName.endsWith(id)),
      )
      .map((tenant) => tenant.TenantArn);
    expect(new Set(arns).size).toBe(2);
  });

  it('paused: the team’s emails are held and GET /v1/team says since when, other teams send on; the next sent email clears it', async () => {
    const form = await newForm('pro');
    const name = `team-${form.teamId}`;
    const sentBy = async (tenant: string) =>
      (await tenants()).find((each) => each.TenantName === tenant)?.sent ?? 0;
    await post(form.key, 'one');
    await eventually(
      () => sentBy(name),
      (sent) => sent >= 1,
    );
    const sending = (status: string) =>
      fetch(new URL(`/tenants/${name}/sending`, stack().mailUrl), {
        method: 'POST',
        body: JSON.stringify({ status }),
      });
    expect((await sending('DISABLED')).status).toBe(200);

    await post(form.key, 'two');
    const paused = await eventually(
      () => api('GET', '/v1/team', { key: form.apiKey }),
      (team) => team.body.emailPausedAt !== null,
    );
    expect(paused.body.emailPausedAt).toEqual(expect.any(String));
    expect(await sentBy(name)).toBe(1);

    const other = await newForm('pro');
    await post(other.key, 'elsewhere');
    await eventually(
      () => sentBy(`team-${other.teamId}`),
      (sent) => sent >= 1,
    );
    expect((await api('GET', '/v1/team', { key: other.apiKey })).body.emailPausedAt).toBeNull();

    expect((await sending('ENABLED')).status).toBe(200);
    await post(form.key, 'three');
    await eventually(
      () => api('GET', '/v1/team', { key: form.apiKey }),
      (team) => team.body.emailPausedAt === null,
    );
  });

  it('the whole account paused (SES says SendingPausedException, its tenant ENABLED): the team is not marked paused, the email is held', async () => {
    const form = await newForm('pro');
    const name = `team-${form.teamId}`;
    await post(form.key, 'one');
    await eventually(
      async () => (await tenants()).find((tenant) => tenant.TenantName === name)?.sent ?? 0,
      (sent) => sent >= 1,
    );
    const account = (status: string) =>
      fetch(new URL('/account/sending', stack().mailUrl), {
        method: 'POST',
        body: JSON.stringify({ status }),
      });
    expect((await account('DISABLED')).status).toBe(200);
    try {
      const posted = await submit(form.key, { json: { message: 'two' }, from: freshVisitor() });
      expect(posted.status, posted.text).toBe(200);
      const submissionId = posted.body?.submissionId as string;
      // Refused by SES, then the worker's decision made: it gives its claim back last.
      await eventually(
        async () => ({
          refused: (await calls()).some(
            (call) =>
              call.operation === 'SendEmail' &&
              call.TenantName === name &&
              call.refused !== undefined,
          ),
          claim: await emailMark(form.id, submissionId),
        }),
        ({ refused, claim }) => refused && claim === undefined,
      );
      expect((await teamItem(form.teamId))?.emailPausedAt).toBeUndefined();
      expect((await api('GET', '/v1/team', { key: form.apiKey })).body.emailPausedAt).toBeNull();
      // SES was asked for the tenant's own status, which says it sends.
      expect(
        (await calls()).filter(
          (call) => call.operation === 'GetTenant' && call.TenantName === name,
        ),
      ).not.toEqual([]);
    } finally {
      await account('ENABLED');
    }
  });

  it('a tenant the team is marked with but SES no longer has is made again, and the email goes out', async () => {
    const form = await newForm('pro');
    const name = `team-${form.teamId}`;
    // As after a tenant was deleted, or a local stack restarted with the table kept.
    const { documents } = await localStore();
    await documents.send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { pk: `TEAM#${form.teamId}`, sk: 'TEAM' },
        UpdateExpression: 'SET sesTenant = :name',
        ExpressionAttributeValues: { ':name': name },
      }),
    );
    expect((await tenants()).some((tenant) => tenant.TenantName === name)).toBe(false);
    await post(form.key, 'after the loss');
    const made = await eventually(
      async () => (await tenants()).find((tenant) => tenant.TenantName === name),
      (tenant) => (tenant?.sent ?? 0) >= 1,
    );
    expect(made?.resources).toHaveLength(2);
  });
});
