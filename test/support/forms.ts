import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { newTeam } from './admin.ts';
import { api, stack } from './api.ts';
import { localStore } from './store.ts';

export interface TestForm {
  id: string;
  key: string;
  teamId: string;
  apiKey: string;
}

/** A form of a team of its own, with `settings` PATCHed on. */
export async function newForm(
  plan: 'free' | 'pro',
  settings: Record<string, unknown> = {},
  create: Record<string, unknown> = { name: 'Submit test', type: 'custom' },
): Promise<TestForm> {
  const team = await newTeam(plan);
  const created = await api('POST', '/v1/forms', { key: team.apiKey, body: create });
  expect(created.status).toBe(201);
  if (Object.keys(settings).length > 0) {
    const patched = await api('PATCH', `/v1/forms/${created.body.id}`, {
      key: team.apiKey,
      body: settings,
    });
    expect(patched.status, patched.text).toBe(200);
  }
  return {
    id: created.body.id as string,
    key: created.body.key as string,
    teamId: team.teamId,
    apiKey: team.apiKey,
  };
}

/** Every submission item of a form (or every item under another sort-key prefix), straight from the table. */
export async function storedItems(
  formId: string,
  prefix = 'SUB#',
): Promise<Record<string, unknown>[]> {
  const { documents } = await localStore();
  const items: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({
        TableName: stack().tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sub)',
        ExpressionAttributeValues: { ':pk': `FORM#${formId}`, ':sub': prefix },
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}

/** Writes form attributes the API refuses (a past `autoCloseAt`), as time passing would. */
export async function forceFormAttributes(formId: string, values: Record<string, unknown>) {
  const { documents } = await localStore();
  const names = Object.keys(values);
  await documents.send(
    new UpdateCommand({
      TableName: stack().tableName,
      Key: { pk: `FORM#${formId}`, sk: 'FORM' },
      UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
      ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, values[n]])),
    }),
  );
}

/** Points the form's webhook at `url` straight in the table, past the API's URL check. */
export async function forceWebhookUrl(formId: string, url: string) {
  const { documents } = await localStore();
  await documents.send(
    new UpdateCommand({
      TableName: stack().tableName,
      Key: { pk: `FORM#${formId}`, sk: 'WEBHOOK' },
      UpdateExpression: 'SET #url = :url',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#url': 'url' },
      ExpressionAttributeValues: { ':url': url },
    }),
  );
}
