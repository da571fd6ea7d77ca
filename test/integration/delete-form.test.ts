import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { FORM_COUNTER_SHARDS } from '#store/keys.ts';
import { newTeam } from '#test/support/admin.ts';
import { api, stack } from '#test/support/api.ts';
import { eventually, until } from '#test/support/poll.ts';
import { localStore } from '#test/support/store.ts';
import { freshVisitor, submit } from '#test/support/submit.ts';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

function clients() {
  const info = stack();
  return {
    table: DynamoDBDocumentClient.from(
      new DynamoDBClient({ region: info.region, endpoint: info.endpoints.dynamodb, credentials }),
    ),
    s3: new S3Client({
      region: info.region,
      endpoint: info.endpoints.s3,
      credentials,
      forcePathStyle: true,
    }),
  };
}

async function partitionSize(formId: string): Promise<number> {
  const { Count } = await clients().table.send(
    new QueryCommand({
      TableName: stack().tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `FORM#${formId}` },
      Select: 'COUNT',
    }),
  );
  return Count ?? 0;
}

async function uploadsOf(formId: string): Promise<number> {
  const { KeyCount } = await clients().s3.send(
    new ListObjectsV2Command({ Bucket: stack().uploadsBucket, Prefix: `forms/${formId}/` }),
  );
  return KeyCount ?? 0;
}

describe('DELETE /v1/forms/{id}', () => {
  it('stops the endpoint at once and purges every item and upload of a form larger than one batch', async () => {
    const { forms } = await localStore();
    const team = await newTeam('free');
    const created = await api('POST', '/v1/forms', { key: team.apiKey, body: { name: 'Doomed' } });
    const id = created.body.id as string;
    const { table, s3 } = clients();
    // 1,200 items: more than one Query page (500) and many BatchWrite batches (25).
    for (let start = 0; start < 1200; start += 25) {
      await table.send(
        new BatchWriteCommand({
          RequestItems: {
            [stack().tableName]: Array.from({ length: 25 }, (_, i) => ({
              PutRequest: {
                Item: {
                  pk: `FORM#${id}`,
                  sk: `SUB#${String(start + i).padStart(6, '0')}`,
                  entity: 'seed',
                },
              },
            })),
          },
        }),
      );
    }
    for (let i = 0; i < 3; i++) {
      await s3.send(
        new PutObjectCommand({
          Bucket: stack().uploadsBucket,
          Key: `forms/${id}/sub${i}/0`,
          Body: `file ${i}`,
        }),
      );
    }
    const other = await api('POST', '/v1/forms', { key: team.apiKey, body: { name: 'Neighbour' } });
    await s3.send(
      new PutObjectCommand({
        Bucket: stack().uploadsBucket,
        Key: `forms/${other.body.id}/keep/0`,
        Body: 'x',
      }),
    );
    // 1,200 submissions, the form item, its counter shards and its column catalogue.
    expect(await partitionSize(id)).toBe(1201 + FORM_COUNTER_SHARDS + 1);

    const deleted = await api('DELETE', `/v1/forms/${id}`, { key: team.apiKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true });

    expect(await forms.findFormKey(created.body.key as string)).toBeUndefined();
    expect((await api('GET', `/v1/forms/${id}`, { key: team.apiKey })).status).toBe(404);
    expect(
      (await api('PATCH', `/v1/forms/${id}`, { key: team.apiKey, body: { name: 'x' } })).status,
    ).toBe(404);
    expect((await api('DELETE', `/v1/forms/${id}`, { key: team.apiKey })).status).toBe(404);
    const list = await api<{ forms: { id: string }[] }>('GET', '/v1/forms', { key: team.apiKey });
    expect(list.body.forms.map((f) => f.id)).toEqual([other.body.id]);

    await until(
      async () => ({ items: await partitionSize(id), uploads: await uploadsOf(id) }),
      (left) => left.items === 0 && left.uploads === 0,
      { timeoutMs: 30_000, intervalMs: 250, what: 'purge' },
    );
    // The neighbour keeps its form item, counter shards and column catalogue.
    expect(await partitionSize(other.body.id as string)).toBe(1 + FORM_COUNTER_SHARDS + 1);
    expect(await uploadsOf(other.body.id as string)).toBe(1);
  }, 60_000);

  it('gives the Free team its form slot back', async () => {
    const team = await newTeam('free');
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C'])
      ids.push(
        (await api('POST', '/v1/forms', { key: team.apiKey, body: { name } })).body.id as string,
      );
    expect((await api('POST', '/v1/forms', { key: team.apiKey, body: { name: 'D' } })).status).toBe(
      402,
    );
    expect((await api('DELETE', `/v1/forms/${ids[0]}`, { key: team.apiKey })).status).toBe(200);
    expect((await api('POST', '/v1/forms', { key: team.apiKey, body: { name: 'D' } })).status).toBe(
      201,
    );
  });

  it('deletes the webhook and the close schedule with the form', async () => {
    const id = (await api('POST', '/v1/forms', { body: { name: 'Hooked' } })).body.id as string;
    await api('PUT', `/v1/forms/${id}/webhook`, { body: { url: 'https://hooks.example.com/x' } });
    await api('PATCH', `/v1/forms/${id}`, {
      body: { autoCloseAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect((await api('DELETE', `/v1/forms/${id}`)).status).toBe(200);
    expect((await api('GET', `/v1/forms/${id}/webhook`)).status).toBe(404);
    const left = await eventually(
      () => partitionSize(id),
      (items) => items === 0,
      { intervalMs: 200 },
    );
    expect(left).toBe(0);
  });

  it("answers 404 for another team's form and deletes nothing", async () => {
    const id = (await api('POST', '/v1/forms', { body: { name: 'Safe' } })).body.id as string;
    const other = await newTeam('pro');
    expect((await api('DELETE', `/v1/forms/${id}`, { key: other.apiKey })).status).toBe(404);
    expect((await api('GET', `/v1/forms/${id}`)).status).toBe(200);
  });
});

describe('the public endpoint and the submissions of a deleted form', () => {
  it('the endpoint answers 404 on the very next post and the submissions are unreachable at once', async () => {
    const created = await api('POST', '/v1/forms', { body: { name: 'Deleted endpoint' } });
    const key = created.body.key as string;
    const posted = await submit(key, { json: { message: 'kept?' }, from: freshVisitor() });
    expect(posted.status).toBe(200);
    const id = posted.body?.submissionId as string;
    expect((await api('DELETE', `/v1/forms/${created.body.id}`)).status).toBe(200);
    const next = await submit(key, { json: { message: 'too late' }, from: freshVisitor() });
    expect(next.status).toBe(404);
    for (const path of ['submissions', `submissions/${id}`, 'export.csv']) {
      const response = await api('GET', `/v1/forms/${created.body.id}/${path}`);
      expect(response.status, path).toBe(404);
    }
  });
});
