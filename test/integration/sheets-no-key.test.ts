import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { stack } from '#test/support/api.ts';
import { newForm } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';

/**
 * A deployment with no Google service account key (docs/integrations.md#connecting-a-sheet):
 * the connect route runs here, in the test's own process, on the local
 * stack's table, with no GOOGLE_* in its environment (the stack's own
 * functions always have the development key).
 */
describe('connecting a sheet where the deployment has no key', () => {
  it('is 409 integration_not_configured, nothing saved, and GET answers serviceAccountEmail null', async () => {
    const form = await newForm('pro');
    const { documents } = await localStore();
    for (const name of [
      'GOOGLE_SERVICE_ACCOUNT_KEY_FILE',
      'GOOGLE_SERVICE_ACCOUNT_EMAIL',
      'GOOGLE_SERVICE_ACCOUNT_PRIVATE_KEY',
    ]) {
      delete process.env[name];
    }
    const invoke = async (
      module: string,
      method: string,
      pathParameters: Record<string, string>,
      body?: unknown,
    ) => {
      const { handler } = (await import(module)) as {
        handler: (
          event: APIGatewayProxyEvent,
          context: Context,
        ) => Promise<{ statusCode: number; body: string }>;
      };
      const event = {
        httpMethod: method,
        path: `/v1/forms/${form.id}/integrations`,
        resource: '/v1/forms/{id}/integrations/{kind}',
        headers: { authorization: `Bearer ${form.apiKey}`, 'content-type': 'application/json' },
        multiValueHeaders: {},
        queryStringParameters: null,
        multiValueQueryStringParameters: null,
        pathParameters,
        body: body === undefined ? null : JSON.stringify(body),
        isBase64Encoded: false,
        requestContext: { requestId: crypto.randomUUID(), identity: { sourceIp: '127.0.0.1' } },
      } as unknown as APIGatewayProxyEvent;
      const context = {
        awsRequestId: crypto.randomUUID(),
        getRemainingTimeInMillis: () => 10_000,
      } as unknown as Context;
      const answer = await handler(event, context);
      return { status: answer.statusCode, body: JSON.parse(answer.body || '{}') };
    };

    const refused = await invoke(
      '#http/integrations/put-integration.ts',
      'PUT',
      { id: form.id, kind: 'sheets' },
      { spreadsheetId: stack().google!.spreadsheetId },
    );
    expect(refused).toMatchObject({
      status: 409,
      body: { error: 'integration_not_configured' },
    });
    const { Item } = await documents.send(
      new (await import('@aws-sdk/lib-dynamodb')).GetCommand({
        TableName: stack().tableName,
        Key: { pk: `FORM#${form.id}`, sk: 'INTEGRATION#sheets' },
        ConsistentRead: true,
      }),
    );
    expect(Item).toBeUndefined();
    const all = await invoke('#http/integrations/get-integrations.ts', 'GET', { id: form.id });
    expect(all).toMatchObject({ status: 200, body: { serviceAccountEmail: null, sheets: null } });
  });
});
