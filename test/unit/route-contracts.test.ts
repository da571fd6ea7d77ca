import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ContractCall, ContractResult } from '#client/client.ts';
import { ERROR_CODES } from '#contracts/error-codes.ts';
import { RESPONSES } from '#contracts/responses.ts';
import { buildOpenApiDocument, handlerContract } from '#lib/openapi/document.ts';
import { clientRoutesModule } from '#lib/routes/route-groups.ts';
import { documentedRoute, type Route, routes } from '#routes';
import { handler, type contract as throwaway } from '#test/fixtures/throwaway-route.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
type Json = Record<string, any>;

/** A JSON route a contributor adds: the fixture module and a table entry naming it. */
const countWords: Route = {
  name: 'countWords',
  method: 'POST',
  path: '/v1/throwaway/{thingId}/words',
  handler: '../test/fixtures/throwaway-route.ts',
  auth: 'anonymous',
  area: 'public',
  memoryMb: 256,
  timeoutSeconds: 5,
  streaming: false,
  access: [],
  summary: 'Counts words (a route of this test only).',
};

function post(body: string) {
  const event = {
    httpMethod: 'POST',
    resource: countWords.path,
    path: '/v1/throwaway/t1/words',
    pathParameters: { thingId: 't1' },
    headers: { 'content-type': 'application/json' },
    body,
    isBase64Encoded: false,
    requestContext: { requestId: 'contract-unit' },
  } as unknown as APIGatewayProxyEvent;
  return handler(event, { getRemainingTimeInMillis: () => 5000 } as Context);
}

describe('a route added with its contract', () => {
  it('is validated by its contract: a body it refuses is 400 invalid_request with the issue', async () => {
    const refused = await post(JSON.stringify({ words: ['a', 'b', 'c', 'd'] }));
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: 'invalid_request',
      issues: [{ path: 'words' }],
    });
    const unknownField = await post(JSON.stringify({ words: [], extra: 1 }));
    expect(unknownField.statusCode).toBe(400);
    const counted = await post(JSON.stringify({ words: ['a', 'b'] }));
    expect(counted.statusCode).toBe(200);
    expect(JSON.parse(counted.body)).toEqual({ count: 2 });
  });

  it('is in the OpenAPI document with its body, its real answer schema and its errors', async () => {
    const document = (await buildOpenApiDocument([...routes, countWords])) as Json;
    const operation = document.paths['/v1/throwaway/{thingId}/words'].post;
    expect(operation.operationId).toBe('countWords');
    expect(operation.description).toBe('Counts the words it is sent.');
    expect(operation.parameters).toEqual([
      { name: 'thingId', in: 'path', required: true, schema: { type: 'string' } },
    ]);
    expect(operation.requestBody.content['application/json'].schema).toMatchObject({
      properties: { words: { type: 'array', maxItems: 3 } },
      additionalProperties: false,
    });
    expect(operation.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Count',
    });
    expect(document.components.schemas.Count).toMatchObject({
      properties: { count: { type: 'integer', minimum: 0 } },
    });
    // A body means it may answer 400, 413 and 415; anyone may call it, so no 401.
    expect(Object.keys(operation.responses).sort()).toEqual([
      '200',
      '400',
      '413',
      '415',
      '429',
      '500',
      '503',
    ]);
  });

  it('is in the client’s route map and types', () => {
    const module = clientRoutesModule([...routes, countWords]);
    expect(module).toContain(
      "import type { contract as countWords } from '#../test/fixtures/throwaway-route.ts';",
    );
    expect(module).toContain("countWords: ['POST', '/v1/throwaway/{thingId}/words'],");
    expectTypeOf<ContractResult<typeof throwaway>>().toEqualTypeOf<{
      status: 200;
      body: { count: number };
      headers: Headers;
    }>();
    expectTypeOf<
      ContractCall<typeof throwaway, typeof countWords.path & '/v1/throwaway/{thingId}/words'>
    >().toMatchTypeOf<{ params: { thingId: string }; body: { words: string[] } }>();
  });
});

describe('every route of the table', () => {
  const documented = routes.filter(documentedRoute);

  it('declares a contract with a success answer, known answer shapes and known error codes', async () => {
    const lacking: string[] = [];
    for (const route of documented) {
      const contract = await handlerContract(route);
      if (!contract.answers.some((answer) => answer.status >= 200 && answer.status < 400)) {
        lacking.push(`${route.name}: no success answer`);
      }
      for (const answer of contract.answers) {
        if (typeof answer.body === 'string' && !(answer.body in RESPONSES)) {
          lacking.push(`${route.name}: unknown answer shape ${answer.body}`);
        }
      }
      for (const code of contract.errors) {
        if (!(code in ERROR_CODES)) lacking.push(`${route.name}: unknown error code ${code}`);
      }
    }
    expect(lacking).toEqual([]);
  });

  it('a route whose handler declares no contract fails the document’s build', async () => {
    const bare: Route = {
      ...countWords,
      name: 'bare',
      handler: '../test/fixtures/recording-handler.ts',
    };
    await expect(buildOpenApiDocument([...routes, bare])).rejects.toThrow(/exports no contract/);
  });
});
