import { type $ZodType, registry, toJSONSchema } from 'zod/v4/core';
import {
  ERROR_CODES,
  ERROR_STATUSES,
  type ErrorCode,
  RETRY_AFTER_STATUSES,
} from '#contracts/error-codes.ts';
import { RESPONSES, type ResponseName } from '#contracts/responses.ts';
import { FILES_SCANNED_EVENT_TYPE, WEBHOOK_EVENT_TYPE } from '#domain/webhook-payload.ts';
import type { Answer, Contract } from '#http/contract.ts';
import { installAwsLambdaGlobal } from '#lib/local/awslambda-shim.ts';
import { documentedRoute, type Route, routes } from '#routes';

/**
 * The OpenAPI 3.1 document, built from the route table and each route's
 * contract (`export const contract` in its handler module) alone: paths,
 * parameters, bodies, answers and error codes come from there, the shapes of
 * answers from `lambdas/contracts/responses.ts`. `npm run openapi` writes it
 * to `openapi.json`, which the docs route serves and a test keeps fresh.
 */

type Json = Record<string, unknown>;

/** Reads a route's contract from its handler module. */
export type ContractLoader = (route: Route) => Promise<Contract>;

const lambdasDir = new URL('../../lambdas/', import.meta.url);

export const handlerContract: ContractLoader = async (route) => {
  // Streaming handlers wrap themselves with the runtime's global at import.
  installAwsLambdaGlobal();
  const module = (await import(new URL(route.handler, lambdasDir).href)) as {
    contract?: Contract;
  };
  if (!module.contract) throw new Error(`${route.handler} exports no contract (${route.name})`);
  return module.contract;
};

/** JSON Schema (2020-12, OpenAPI 3.1's dialect) of a zod schema, as a request sends or an answer carries it. */
export function jsonSchemaOf(schema: $ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Json;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: Json) => ({ 'application/json': { schema } });
const string: Json = { type: 'string' };
const HTML = { 'text/html': { schema: string } };

/** Headers many answers carry: components, referred to by name. */
const HEADER_COMPONENTS: Record<string, Json> = {
  RequestId: { description: 'The id of this request, quoted in the log line.', schema: string },
  AllowOrigin: { description: 'Always `*`.', schema: string },
  RetryAfter: { description: 'Seconds to wait.', schema: { type: 'integer' } },
};
const HEADERS: Record<string, Json> = {
  'x-request-id': { $ref: '#/components/headers/RequestId' },
  'access-control-allow-origin': { $ref: '#/components/headers/AllowOrigin' },
  'retry-after': { $ref: '#/components/headers/RetryAfter' },
};

/** Error codes a route answers without naming them, by the kind of route. */
function implicitErrors(route: Route, contract: Contract): ErrorCode[] {
  const input: ErrorCode[] = [
    ...(contract.query || contract.body ? (['invalid_request'] as const) : []),
    ...(contract.body ? (['payload_too_large', 'unsupported_media_type'] as const) : []),
  ];
  if (route.auth === 'apiKey') {
    return [
      ...input,
      'unauthorized',
      'not_found',
      // Changes by a session need the same origin (callerAuth).
      ...(route.method === 'GET' ? [] : (['csrf'] as const)),
      'rate_limited',
      'internal_error',
      'busy',
    ];
  }
  if (route.auth === 'anonymous') return [...input, 'rate_limited', 'internal_error', 'busy'];
  return ['internal_error'];
}

/** Every code a route may answer, grouped by status. */
export function errorsByStatus(route: Route, contract: Contract): Map<number, ErrorCode[]> {
  const codes = new Set<ErrorCode>([...implicitErrors(route, contract), ...contract.errors]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes].sort()) {
    const status = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

function headersOf(contract: Contract, extra: Json = {}): Json {
  return {
    'x-request-id': HEADERS['x-request-id'],
    ...(contract.cors
      ? { 'access-control-allow-origin': HEADERS['access-control-allow-origin'] }
      : {}),
    ...extra,
  };
}

function answerResponse(contract: Contract, answer: Answer): Json {
  const declared = Object.fromEntries(
    Object.entries(answer.headers ?? {}).map(([name, description]) => [
      name,
      { description, schema: string },
    ]),
  );
  const body = answer.body;
  const content =
    body === null
      ? undefined
      : typeof body === 'string'
        ? { ...jsonContent(ref(body)), ...(answer.alsoHtml ? HTML : {}) }
        : {
            [body.mediaType]: {
              schema: body.mediaType === 'application/json' ? { type: 'object' } : string,
            },
          };
  return {
    description: answer.description,
    headers: headersOf(contract, declared),
    ...(content ? { content } : {}),
  };
}

function errorResponse(contract: Contract, status: number, codes: ErrorCode[]): Json {
  const schema = { allOf: [ref('ErrorEnvelope'), { properties: { error: { enum: codes } } }] };
  return {
    description: `${ERROR_STATUSES[status]} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    headers: headersOf(
      contract,
      RETRY_AFTER_STATUSES.includes(status) ? { 'retry-after': HEADERS['retry-after'] } : {},
    ),
    content: { ...jsonContent(schema), ...(contract.htmlErrors ? HTML : {}) },
  };
}

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{([^}+]+)\+?\}/g)].map((m) => ({
    name: m[1]!,
    in: 'path',
    required: true,
    schema:
      m[1] === 'key'
        ? { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9-]{0,63}$' }
        : m[1] === 'index'
          ? { type: 'integer', minimum: 0 }
          : string,
  }));
}

function queryParameters(schema: $ZodType | undefined): Json[] {
  if (!schema) return [];
  const json = jsonSchemaOf(schema, 'input') as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
}

/** Optional request headers the route reads, as the contract describes them. */
function headerParameters(contract: Contract): Json[] {
  return Object.entries(contract.requestHeaders ?? {}).map(([name, header]) => ({
    name,
    in: 'header',
    required: false,
    description: header.description,
    schema: header.schema,
  }));
}

function requestBody(contract: Contract): Json | undefined {
  if (contract.body) {
    return { required: true, content: jsonContent(jsonSchemaOf(contract.body, 'input')) };
  }
  if (contract.bodyMedia) {
    return {
      required: true,
      content: Object.fromEntries(
        Object.entries(contract.bodyMedia).map(([type, schema]) => [type, { schema }]),
      ),
    };
  }
  return undefined;
}

/**
 * Error answers plain JSON routes share, by their codes: a component each
 * (`Error_not_found`, `Error_csrf_or_owner_only`), so the document names
 * each combination once.
 */
type SharedErrors = Map<string, Json>;

function errorAnswer(
  contract: Contract,
  status: number,
  codes: ErrorCode[],
  shared: SharedErrors,
): Json {
  if (contract.cors || contract.htmlErrors) return errorResponse(contract, status, codes);
  const name = `Error_${codes.join('_or_')}`;
  if (!shared.has(name)) shared.set(name, errorResponse(contract, status, codes));
  return { $ref: `#/components/responses/${name}` };
}

/**
 * The named answer shapes, each once: a shape inside another (a Submission
 * in a SubmissionPage) is a `$ref` to its own component.
 */
function componentSchemas(names: readonly string[]): Record<string, Json> {
  const named = registry<{ id: string }>();
  for (const name of names) named.add(RESPONSES[name as ResponseName], { id: name });
  const { schemas } = toJSONSchema(named, {
    io: 'output',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  return Object.fromEntries(
    names.map((name) => {
      const { $schema: _dialect, $id: _id, ...rest } = schemas[name]!;
      return [name, rest];
    }),
  );
}

export function operationOf(
  route: Route,
  contract: Contract,
  shared: SharedErrors = new Map(),
): Json {
  const parameters = [
    ...pathParameters(route.path),
    ...queryParameters(contract.query),
    ...headerParameters(contract),
  ];
  const body = requestBody(contract);
  return {
    operationId: route.name,
    summary: route.summary,
    ...(contract.description ? { description: contract.description } : {}),
    tags: [contract.tag],
    security: route.auth === 'apiKey' ? [{ apiKey: [] }, { session: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: {
      ...Object.fromEntries(
        contract.answers.map((answer) => [String(answer.status), answerResponse(contract, answer)]),
      ),
      ...Object.fromEntries(
        [...errorsByStatus(route, contract)].map(([status, codes]) => [
          String(status),
          errorAnswer(contract, status, codes, shared),
        ]),
      ),
    },
  };
}

function webhookHeaders(): Json[] {
  const header = (name: string, description: string, schema: Json = string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema,
  });
  return [
    header(
      'webhook-id',
      '`msg_<deliveryId>`: the same on every attempt and every retry (for `submission.created` the submission id; `submission.files_scanned` has its own).',
      {
        type: 'string',
        pattern: '^msg_',
      },
    ),
    header('webhook-timestamp', 'Seconds since the epoch of this attempt.', {
      type: 'string',
      pattern: '^[0-9]+$',
    }),
    header(
      'webhook-signature',
      'Standard Webhooks: `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the `whsec_` secret.',
      { type: 'string', pattern: '^v1,' },
    ),
    header('user-agent', 'Always `service-webhooks/1`.'),
  ];
}

const TAGS = [
  { name: 'Submit', description: 'The public submit endpoint and its direct uploads.' },
  { name: 'Forms', description: 'Forms API.' },
  { name: 'Submissions', description: 'Submissions API.' },
  { name: 'Webhooks', description: 'Webhook settings and deliveries.' },
  {
    name: 'Integrations',
    description: 'Slack, Discord and Google Sheets: connections and deliveries.',
  },
  { name: 'Hosted forms', description: 'The hosted form page and the embed.' },
  { name: 'Sign-in', description: 'Email sign-in and dashboard sessions.' },
  { name: 'Team', description: 'The team: members, API keys, the audit trail (owners).' },
  {
    name: 'Privacy',
    description: "A person's submissions by email address: export and erase (owners).",
  },
  { name: 'Docs', description: 'This document.' },
];

/** The document. Deterministic: the same table and contracts give the same JSON. */
export async function buildOpenApiDocument(
  table: readonly Route[] = routes,
  load: ContractLoader = handlerContract,
): Promise<Json> {
  const paths: Record<string, Record<string, Json>> = {};
  const named = new Set<string>(['ErrorEnvelope', 'WebhookPayload', 'FilesScannedPayload']);
  const shared: SharedErrors = new Map();
  for (const route of table.filter(documentedRoute)) {
    const contract = await load(route);
    if (!TAGS.some((tag) => tag.name === contract.tag)) {
      throw new Error(`${route.name}: tag ${contract.tag} is not one of the document's tags`);
    }
    for (const answer of contract.answers) {
      if (typeof answer.body === 'string') named.add(answer.body);
    }
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operationOf(route, contract, shared);
  }
  const schemas = componentSchemas([...named].sort());
  return {
    openapi: '3.1.0',
    info: {
      title: 'Form service API',
      version: '1',
      description:
        'Hosted form backend: the public submit endpoint (`/s/{key}`), the management API (`/v1`, `Authorization: Bearer <API key>` or a dashboard session, 300 requests a minute per caller) and signed webhooks. Every response carries `x-request-id`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The deployment’s base URL.' }],
    tags: TAGS,
    paths,
    webhooks: {
      [WEBHOOK_EVENT_TYPE]: {
        post: {
          operationId: 'submissionCreated',
          // Signed with the webhook's secret (`webhook-signature`), not an API key.
          security: [],
          summary: 'Sent for every stored submission of a Pro form with a connected webhook.',
          description:
            'Standard Webhooks. A 2xx is delivered; timeouts, network errors, 408, 429 and 5xx are retried (a longer `Retry-After` honoured); other answers, and every 3xx, are failures not retried.',
          parameters: webhookHeaders(),
          requestBody: { required: true, content: jsonContent(ref('WebhookPayload')) },
          responses: {
            '200': { description: 'Any 2xx: delivered.' },
            '400': { description: 'Not retried; the webhook becomes `failing`.' },
            '503': { description: 'Retried later.' },
          },
        },
      },
      [FILES_SCANNED_EVENT_TYPE]: {
        post: {
          operationId: 'submissionFilesScanned',
          security: [],
          summary:
            "Sent once every file of a submission has its malware scan's verdict (scanning on), with the same rules and signature as submission.created.",
          description:
            'Standard Webhooks, its own `webhook-id`. A receiver that ignores event types it does not know is unaffected.',
          parameters: webhookHeaders(),
          requestBody: { required: true, content: jsonContent(ref('FilesScannedPayload')) },
          responses: {
            '200': { description: 'Any 2xx: delivered.' },
            '400': { description: 'Not retried; the webhook becomes `failing`.' },
            '503': { description: 'Retried later.' },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key of the team: `Authorization: Bearer <API key>`.',
        },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'fs_session',
          description:
            'A dashboard session (POST /v1/auth/verify sets it). Changes, and the export by email (it records itself in the audit trail), need Sec-Fetch-Site: same-origin or an Origin equal to the service’s (else 403 csrf).',
        },
      },
      schemas,
      responses: Object.fromEntries([...shared].sort(([a], [b]) => a.localeCompare(b))),
      headers: HEADER_COMPONENTS,
    },
  };
}

/** The document as `openapi.json` holds it: two-space JSON and a final newline. */
export async function openApiJson(
  table: readonly Route[] = routes,
  load: ContractLoader = handlerContract,
): Promise<string> {
  return `${JSON.stringify(await buildOpenApiDocument(table, load), null, 2)}\n`;
}
