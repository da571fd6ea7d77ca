import { type $ZodType, toJSONSchema } from 'zod/v4/core';
import { auditQuery } from '#domain/audit-query.ts';
import { bulkDeleteInput, bulkUpdateInput } from '#domain/bulk-target.ts';
import { deliveryListQuery } from '#domain/delivery-list-query.ts';
import {
  DIRECT_UPLOAD_TOTAL_BYTES,
  MAX_DIRECT_FILES,
  UPLOADS_FIELD,
} from '#domain/direct-uploads.ts';
import { createFormInput, duplicateFormInput } from '#domain/form-input.ts';
import { FIELD_TYPES, FORM_TYPES } from '#domain/form-model.ts';
import { formUpdateInput } from '#domain/form-update.ts';
import {
  createApiKeyInput,
  inviteMemberInput,
  signInInput,
  switchTeamInput,
  updateMemberInput,
  verifyInput,
} from '#domain/member-input.ts';
import { searchQuery } from '#domain/search-query.ts';
import { exportQuery } from '#domain/submission-export.ts';
import { listQuery } from '#domain/submission-list.ts';
import { uploadRequestSchema } from '#domain/upload-request.ts';
import { CANCEL_REASONS, DELIVERY_STATUSES } from '#domain/webhook-delivery.ts';
import { WEBHOOK_EVENT_TYPE } from '#domain/webhook-payload.ts';
import { webhookInput } from '#domain/webhooks.ts';
import { documentedRoute, type Route, routes } from '#routes';

/**
 * The OpenAPI 3.1 document of the service, built from THE route table
 * (`lambdas/routes.ts`) and the zod schemas the handlers validate with: a
 * route added to the table appears here (path, method, summary, path
 * parameters, auth) without any other change. Only the docs route imports
 * this module; `npm run openapi` writes its output to `openapi.json`.
 */

type Json = Record<string, unknown>;

/** What each handler parses, by route name (`parse(schema, body | query)`). */
const REQUEST_SCHEMAS: Record<string, { body?: $ZodType; query?: $ZodType }> = {
  createForm: { body: createFormInput },
  updateForm: { body: formUpdateInput },
  duplicateForm: { body: duplicateFormInput },
  listSubmissions: { query: listQuery },
  updateSubmissions: { body: bulkUpdateInput },
  deleteSubmissions: { body: bulkDeleteInput },
  exportSubmissionsCsv: { query: exportQuery },
  putWebhook: { body: webhookInput({ allowLoopback: false }) },
  listWebhookDeliveries: { query: deliveryListQuery },
  signIn: { body: signInInput },
  verifySignIn: { body: verifyInput },
  switchTeam: { body: switchTeamInput },
  inviteMember: { body: inviteMemberInput },
  updateMember: { body: updateMemberInput },
  createApiKey: { body: createApiKeyInput },
  listAuditEvents: { query: auditQuery },
  searchSubmissions: { query: searchQuery },
};

/** JSON Schema (2020-12, OpenAPI 3.1's dialect) of what a request may send. */
export function inputSchema(schema: $ZodType): Json {
  const { $schema: _dialect, ...rest } = toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Json;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const jsonContent = (schema: Json) => ({ 'application/json': { schema } });
const objectOf = (properties: Record<string, Json>, required = Object.keys(properties)): Json => ({
  type: 'object',
  properties,
  required,
});
const string: Json = { type: 'string' };
const dateTime: Json = { type: 'string', format: 'date-time' };

const nullable = (schema: Json): Json => ({ anyOf: [schema, { type: 'null' }] });

/** The settings every full form shows (`FormSettings` in form-model.ts). */
const FORM_SETTINGS: Record<string, Json> = {
  name: string,
  type: { enum: [...FORM_TYPES] },
  emoji: nullable(string),
  status: { enum: ['active', 'paused'] },
  closedReason: nullable({ enum: ['manual', 'max_submissions', 'auto_close_date'] }),
  maxSubmissions: nullable({ type: 'integer', minimum: 1 }),
  autoCloseAt: nullable(dateTime),
  closedMessage: nullable(string),
  notifyEnabled: { type: 'boolean' },
  notifyEmail: nullable(string),
  notifySubject: string,
  notifyFromName: string,
  autoreplyEnabled: { type: 'boolean' },
  autoreplySubject: nullable(string),
  autoreplyBody: nullable(string),
  autoreplyAnswerPlaceholders: { type: 'boolean' },
  autoreplyHourlyLimit: { type: 'integer', minimum: 1, maximum: 1000 },
  completionMode: { enum: ['default', 'message', 'redirect'] },
  completionTitle: nullable(string),
  completionMessage: nullable(string),
  redirectUrl: nullable(string),
  fields: nullable({
    type: 'array',
    items: {
      type: 'object',
      properties: { id: string, type: { enum: [...FIELD_TYPES] } },
      required: ['id', 'type'],
    },
  }),
  design: { type: 'object' },
  allowedOrigins: { type: 'array', items: string },
  blockedIps: { type: 'array', items: string },
  blockedCountries: { type: 'array', items: string },
  captchaEnabled: { type: 'boolean' },
  captchaProvider: nullable({ const: 'turnstile' }),
  captchaSiteKey: nullable(string),
  dontStoreIp: { type: 'boolean' },
  allowUploads: { type: 'boolean' },
  uploadLimitMb: { type: 'number' },
};

const ERROR_ENVELOPE: Json = {
  type: 'object',
  description: 'Every refusal: `{ ok: false, error, message, issues? }`.',
  properties: {
    ok: { const: false },
    error: { type: 'string', description: 'Machine-readable code, e.g. `not_found`.' },
    message: { type: 'string', description: 'For people; never parse it.' },
    issues: {
      type: 'array',
      description: 'With `invalid_request`: what failed in the body or query string.',
      items: objectOf({ path: string, code: string, message: string }),
    },
  },
  required: ['ok', 'error', 'message'],
};

const REQUEST_ID_HEADER = {
  description: 'The id of this request, quoted in the log line.',
  schema: string,
};
const RETRY_AFTER_HEADER = { description: 'Seconds to wait.', schema: { type: 'integer' } };

/** Shared error responses, by status: the codes each may carry. */
const ERRORS: Record<string, { codes: string[]; description: string; retryAfter?: boolean }> = {
  '400': {
    codes: [
      'invalid_request',
      'uploads_disabled',
      'upload_not_found',
      'upload_already_used',
      'upload_expired',
    ],
    description:
      'Malformed JSON or a failed schema; on the public routes, files the form does not take.',
  },
  '401': { codes: ['unauthorized'], description: 'Missing, malformed, unknown or revoked key.' },
  '402': {
    codes: ['form_limit_reached', 'plan_required', 'submission_limit_reached'],
    description: 'A plan limit.',
  },
  '403': {
    codes: ['origin_not_allowed', 'captcha_failed', 'captcha_unavailable'],
    description: 'Refused.',
  },
  '404': { codes: ['not_found'], description: 'Unknown path, or not in the key’s team.' },
  '405': { codes: ['method_not_allowed'], description: 'Known path, other method (`Allow`).' },
  '409': {
    codes: ['conflict', 'delivery_not_failed', 'delivery_not_retryable'],
    description: 'A conflict.',
  },
  '413': {
    codes: ['payload_too_large', 'file_too_large', 'too_many_files'],
    description: 'The body is too large.',
  },
  '415': {
    codes: ['unsupported_media_type', 'file_type_not_allowed'],
    description: 'The body’s type is not accepted.',
  },
  '422': { codes: ['empty_submission'], description: 'No answer with visible content.' },
  '423': { codes: ['form_closed'], description: 'The form is closed.' },
  '429': {
    codes: ['rate_limited'],
    description: 'Too many requests; `Retry-After` gives seconds.',
    retryAfter: true,
  },
  '500': { codes: ['internal_error'], description: 'A bug; the log has the stack.' },
  '503': {
    codes: ['busy', 'incomplete'],
    description: 'Try again after `Retry-After`.',
    retryAfter: true,
  },
};

const errorName = (status: string) => `Error${status}`;

function errorResponse(status: string): Json {
  const { codes, description, retryAfter } = ERRORS[status]!;
  return {
    description: `${description} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    headers: {
      'x-request-id': REQUEST_ID_HEADER,
      ...(retryAfter ? { 'retry-after': RETRY_AFTER_HEADER } : {}),
    },
    content: jsonContent(ref('ErrorEnvelope')),
  };
}

/** Success answers of the management routes, by name: status and body. */
const FORM = ref('Form');
const OK_TRUE = objectOf({ ok: { const: true } });
const COUNT = objectOf({ count: { type: 'integer', minimum: 0 } });
const WEBHOOK = ref('Webhook');
const SUCCESS: Record<string, Record<string, { description: string; schema?: Json }>> = {
  listForms: {
    '200': {
      description: 'The team’s forms, newest first.',
      schema: objectOf({ forms: { type: 'array', items: ref('ShortForm') } }),
    },
  },
  createForm: { '201': { description: 'The new form.', schema: FORM } },
  getForm: { '200': { description: 'The form.', schema: FORM } },
  updateForm: { '200': { description: 'The form as saved.', schema: FORM } },
  deleteForm: { '200': { description: 'Deleted.', schema: OK_TRUE } },
  duplicateForm: { '201': { description: 'The copy.', schema: FORM } },
  rotateFormKey: { '200': { description: 'The form with its new key.', schema: FORM } },
  sendTestSubmission: {
    '201': { description: 'Stored.', schema: objectOf({ submissionId: string }) },
  },
  listSubmissions: {
    '200': {
      description: 'One page of the folder, newest first.',
      schema: objectOf({
        items: { type: 'array', items: ref('Submission') },
        page: { type: 'integer' },
        pageSize: { type: 'integer' },
        pageCount: { type: 'integer' },
        total: { type: 'integer' },
        unreadCount: { type: 'integer' },
        folderCounts: objectOf({
          all: { type: 'integer', minimum: 0 },
          unread: { type: 'integer', minimum: 0 },
          starred: { type: 'integer', minimum: 0 },
          spam: { type: 'integer', minimum: 0 },
        }),
        asOf: dateTime,
      }),
    },
  },
  searchSubmissions: {
    '200': {
      description: 'The matches among the next submissions read, newest first.',
      schema: objectOf({
        items: { type: 'array', items: ref('Submission') },
        next: nullable(string),
        searched: { type: 'integer', minimum: 0 },
        total: { type: 'integer', minimum: 0 },
      }),
    },
  },
  getSubmission: { '200': { description: 'The submission.', schema: ref('Submission') } },
  updateSubmissions: { '200': { description: 'Submissions whose flags changed.', schema: COUNT } },
  deleteSubmissions: { '200': { description: 'Submissions deleted.', schema: COUNT } },
  getSubmissionFile: {
    '200': {
      description: 'A presigned download link, valid 15 minutes.',
      schema: objectOf({ url: string, name: string, mime: string, expiresAt: dateTime }),
    },
  },
  getWebhook: { '200': { description: 'The webhook.', schema: WEBHOOK } },
  putWebhook: {
    '200': { description: 'URL changed; same secret.', schema: WEBHOOK },
    '201': { description: 'Connected, with a new secret.', schema: WEBHOOK },
  },
  rotateWebhookSecret: { '200': { description: 'With the new secret.', schema: WEBHOOK } },
  deleteWebhook: { '200': { description: 'Disconnected.', schema: OK_TRUE } },
  listWebhookDeliveries: {
    '200': {
      description: 'Deliveries newest first; `next` continues, `null` at the end.',
      schema: objectOf({
        deliveries: { type: 'array', items: ref('Delivery') },
        next: { type: ['string', 'null'] },
      }),
    },
  },
  retryWebhookDelivery: { '202': { description: 'Pending again.', schema: ref('Delivery') } },
};

/** Statuses each management route may answer besides the common ones. */
const EXTRA_ERRORS: Record<string, string[]> = {
  createForm: ['402'],
  updateForm: ['402', '409'],
  duplicateForm: ['402'],
  putWebhook: ['402'],
  retryWebhookDelivery: ['402', '409'],
  updateSubmissions: ['503'],
  deleteSubmissions: ['503'],
};

const SUBMIT_ERRORS = ['400', '402', '403', '404', '413', '415', '422', '423', '429', '500', '503'];
const UPLOADS_ERRORS = ['400', '403', '404', '413', '415', '423', '429', '500', '503'];

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
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
  const json = inputSchema(schema) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
}

function operationId(route: Route): string {
  return route.name;
}

function tagOf(route: Route): string {
  if (route.path.startsWith('/s/')) return 'Submit';
  if (route.path.includes('/webhook')) return 'Webhooks';
  if (route.path.includes('/submissions') || route.path.endsWith('/export.csv')) {
    return 'Submissions';
  }
  if (route.path.startsWith('/v1/forms')) return 'Forms';
  if (route.path.startsWith('/f/') || route.path === '/embed.js') return 'Hosted forms';
  if (route.path.startsWith('/v1/auth')) return 'Sign-in';
  if (route.path.startsWith('/v1/team')) return 'Team';
  return 'Docs';
}

function managementOperation(route: Route): Json {
  const schemas = REQUEST_SCHEMAS[route.name] ?? {};
  const parameters = [...pathParameters(route.path), ...queryParameters(schemas.query)];
  const takesInput = schemas.body !== undefined || schemas.query !== undefined;
  const errors = [
    ...(takesInput ? ['400'] : []),
    '401',
    '404',
    ...(schemas.body ? ['413', '415'] : []),
    ...(EXTRA_ERRORS[route.name] ?? []),
    '429',
    '500',
  ].sort();
  const success =
    route.name === 'exportSubmissionsCsv'
      ? {
          '200': {
            description: 'CSV, streamed (UTF-8 with BOM), as an attachment.',
            headers: { 'x-request-id': REQUEST_ID_HEADER },
            content: { 'text/csv': { schema: string } },
          },
        }
      : Object.fromEntries(
          Object.entries(SUCCESS[route.name] ?? { '200': { description: 'OK.' } }).map(
            ([status, { description, schema }]) => [
              status,
              {
                description,
                headers: { 'x-request-id': REQUEST_ID_HEADER },
                content: jsonContent(schema ?? { type: 'object' }),
              },
            ],
          ),
        );
  return {
    operationId: operationId(route),
    summary: route.summary,
    tags: [tagOf(route)],
    security: route.auth === 'anonymous' ? [] : [{ apiKey: [] }, { session: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(schemas.body
      ? {
          requestBody: {
            required: true,
            content: jsonContent(inputSchema(schemas.body)),
          },
        }
      : {}),
    responses: {
      ...success,
      ...Object.fromEntries(errors.map((status) => [status, responseRef(errorName(status))])),
    },
  };
}

const HTML = { 'text/html': { schema: string } };
const CORS_RESPONSE_HEADERS = {
  'x-request-id': REQUEST_ID_HEADER,
  'access-control-allow-origin': { description: 'Always `*`.', schema: string },
};

function submitOperation(route: Route): Json {
  const answers = {
    type: 'object',
    description:
      'Answers by field name; names starting with `_` are special (`_gotcha`, `_t`, `_redirect`, `_subject`, `_replyto`, `_captcha`, `_uploads`) and never stored as answers. `_uploads` names direct uploads (ids from `POST /s/{key}/uploads`): comma-separated, repeated, or a JSON array.',
    additionalProperties: true,
  };
  return {
    operationId: operationId(route),
    summary: route.summary,
    description:
      'Public, no credentials. The steps run in order and the first failing one decides. A browser (`Accept` preferring `text/html`) gets pages instead of JSON. A post dropped as a bot (honeypot, fill time, block lists, spam cap) is answered `200 { ok: true }` and nothing is stored.',
    tags: [tagOf(route)],
    security: [],
    parameters: pathParameters(route.path),
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': {
          schema: { ...answers, additionalProperties: string },
        },
        'multipart/form-data': {
          schema: {
            ...answers,
            additionalProperties: {
              anyOf: [string, { type: 'string', contentMediaType: 'application/octet-stream' }],
            },
          },
        },
        'application/json': { schema: answers },
      },
    },
    responses: {
      '200': {
        description: 'Accepted (or dropped as a bot); the thank-you page for a browser.',
        headers: CORS_RESPONSE_HEADERS,
        content: { ...jsonContent(ref('SubmitAccepted')), ...HTML },
      },
      '303': {
        description:
          'A browser post with a redirect: to `_redirect` (Pro) or the form’s `redirectUrl`.',
        headers: { ...CORS_RESPONSE_HEADERS, location: { schema: string } },
      },
      ...Object.fromEntries(
        SUBMIT_ERRORS.map((status) => {
          const error = errorResponse(status) as { headers: Json; content: Json };
          return [
            status,
            {
              ...error,
              headers: { ...error.headers, ...CORS_RESPONSE_HEADERS },
              content: { ...error.content, ...HTML },
            },
          ];
        }),
      ),
    },
  };
}

function uploadsOperation(route: Route): Json {
  return {
    operationId: operationId(route),
    summary: route.summary,
    description: `Public, no credentials; the submit endpoint's steps that apply before a post exists run in its order (form, block lists, allowed websites, rate limits counted in the same windows, files, closed). Up to ${MAX_DIRECT_FILES} files a post, each up to the form's \`uploadLimitMb\`, ${DIRECT_UPLOAD_TOTAL_BYTES / 1024 / 1024} MB together. POST each file to its \`url\` as multipart/form-data with every entry of \`fields\` and the file last (named \`file\`) within 15 minutes, then post the form to \`/s/{key}\` with the ids in \`${UPLOADS_FIELD}\`. A blocked visitor is answered like anyone else.`,
    tags: [tagOf(route)],
    security: [],
    parameters: pathParameters(route.path),
    requestBody: {
      required: true,
      content: jsonContent(inputSchema(uploadRequestSchema)),
    },
    responses: {
      '200': {
        description: 'One presigned S3 POST per file, in the order sent.',
        headers: CORS_RESPONSE_HEADERS,
        content: jsonContent(
          objectOf({
            ok: { const: true },
            uploads: {
              type: 'array',
              items: objectOf({
                uploadId: {
                  type: 'string',
                  description: `The id to name in \`${UPLOADS_FIELD}\`.`,
                },
                url: { type: 'string', description: 'Where to POST the file (the bucket).' },
                fields: {
                  type: 'object',
                  description: 'Form fields to send before the file, exactly as given.',
                  additionalProperties: string,
                },
                expiresAt: { ...dateTime, description: 'When the policy stops working.' },
              }),
            },
          }),
        ),
      },
      ...Object.fromEntries(
        UPLOADS_ERRORS.map((status) => {
          const error = errorResponse(status) as { headers: Json };
          return [status, { ...error, headers: { ...error.headers, ...CORS_RESPONSE_HEADERS } }];
        }),
      ),
    },
  };
}

/** Public routes that answer something other than JSON (the API reference page, the hosted form page, their scripts). */
const PUBLIC_NON_JSON: Record<string, { description: string; content: Json }> = {
  getApiDocsPage: { description: 'The reference page.', content: HTML },
  getApiDocsScript: {
    description: 'Redoc and the page start-up.',
    content: { 'text/javascript': { schema: string } },
  },
  getEmbedScript: {
    description: 'The client of the hosted page and of the embed (no framework, one file).',
    content: { 'text/javascript': { schema: string } },
  },
};

/** What `GET /f/{key}/form.json` answers (`PublicForm` in lambdas/domain/public-form.ts). */
const PUBLIC_FORM: Json = objectOf({
  key: string,
  title: string,
  description: nullable(string),
  theme: { enum: ['light', 'dark', 'auto'] },
  accent: nullable({ type: 'string', pattern: '^#[0-9A-Fa-f]{6}$' }),
  submitLabel: string,
  fields: {
    type: 'array',
    description:
      'The fields drawn: the form’s, or name, email and message for a form that takes any field. File fields only when the form takes uploads.',
    items: {
      type: 'object',
      properties: { id: string, type: { enum: [...FIELD_TYPES] } },
      required: ['id', 'type'],
    },
  },
  multipart: { type: 'boolean', description: 'Posts carry files (`multipart/form-data`).' },
  closedMessage: nullable({ type: 'string', description: 'Set when the form takes no posts.' }),
  captchaSiteKey: nullable({ type: 'string', description: 'The Turnstile site key.' }),
  successTitle: string,
  successMessage: string,
  redirectUrl: nullable(string),
  renderedAt: { type: 'integer', description: 'Server time (Unix ms): the `_t` to post back.' },
});

/** Public form routes (`/f/{key}`): their answers besides 200, and the 200 of the JSON one. */
const FORM_ROUTES: Record<string, { ok: Json; errors: string[]; html: boolean }> = {
  getFormPage: {
    ok: {
      description: 'The page: the form drawn from its fields and design, or its closed message.',
      content: HTML,
    },
    errors: ['404', '500'],
    html: true,
  },
  getPublicForm: {
    ok: { description: 'The form’s public settings.', content: jsonContent(PUBLIC_FORM) },
    errors: ['403', '404', '500'],
    html: false,
  },
};

function formRouteOperation(route: Route, spec: (typeof FORM_ROUTES)[string]): Json {
  return {
    operationId: operationId(route),
    summary: route.summary,
    tags: [tagOf(route)],
    security: [],
    parameters: pathParameters(route.path),
    responses: {
      '200': {
        ...spec.ok,
        headers: spec.html ? { 'x-request-id': REQUEST_ID_HEADER } : CORS_RESPONSE_HEADERS,
      },
      ...Object.fromEntries(
        spec.errors.map((status) => {
          const error = errorResponse(status) as { headers: Json; content: Json };
          return [
            status,
            {
              ...error,
              headers: { ...error.headers, ...CORS_RESPONSE_HEADERS },
              // A browser asking for HTML gets the 404 as a page.
              content: spec.html ? { ...error.content, ...HTML } : error.content,
            },
          ];
        }),
      ),
    },
  };
}

function publicOperation(route: Route): Json {
  const formRoute = FORM_ROUTES[route.name];
  if (formRoute) return formRouteOperation(route, formRoute);
  const nonJson = PUBLIC_NON_JSON[route.name];
  const headers = nonJson ? { 'x-request-id': REQUEST_ID_HEADER } : CORS_RESPONSE_HEADERS;
  return {
    operationId: operationId(route),
    summary: route.summary,
    tags: [tagOf(route)],
    security: [],
    ...(pathParameters(route.path).length > 0 ? { parameters: pathParameters(route.path) } : {}),
    responses: {
      '200': {
        description: nonJson?.description ?? 'OK.',
        headers,
        content: nonJson?.content ?? jsonContent({ type: 'object' }),
      },
      '304': {
        description: 'Not modified: `If-None-Match` named the current `ETag`.',
        headers,
      },
      '500': responseRef(errorName('500')),
    },
  };
}

function operationOf(route: Route): Json {
  if (route.auth !== 'public') return managementOperation(route);
  if (route.method === 'POST' && route.path === '/s/{key}') return submitOperation(route);
  if (route.method === 'POST' && route.path === '/s/{key}/uploads') return uploadsOperation(route);
  return publicOperation(route);
}

const WEBHOOK_PAYLOAD: Json = {
  type: 'object',
  properties: {
    type: { const: WEBHOOK_EVENT_TYPE },
    timestamp: { ...dateTime, description: 'When this attempt was sent.' },
    data: objectOf({
      formId: string,
      submissionId: string,
      submittedAt: dateTime,
      test: { type: 'boolean' },
      spam: { type: 'boolean' },
      fields: {
        type: 'object',
        description: 'Answers by name; no special fields, no files.',
        additionalProperties: string,
      },
    }),
  },
  required: ['type', 'timestamp', 'data'],
};

function webhookHeaders(): Json[] {
  const header = (name: string, description: string, schema: Json = string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema,
  });
  return [
    header('webhook-id', '`msg_<submissionId>`: the same on every attempt and every retry.', {
      type: 'string',
      pattern: '^msg_',
    }),
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

const COMPONENT_SCHEMAS: Record<string, Json> = {
  ErrorEnvelope: ERROR_ENVELOPE,
  SubmitAccepted: {
    type: 'object',
    properties: {
      ok: { const: true },
      submissionId: { type: 'string', description: 'Absent when the post was dropped as a bot.' },
      warning: { const: 'near_limit' },
    },
    required: ['ok'],
  },
  Form: objectOf({
    id: string,
    key: string,
    endpoint: { type: 'string', description: 'The public submit address, `<base>/s/<key>`.' },
    userId: string,
    createdAt: dateTime,
    updatedAt: dateTime,
    captchaSecretKeySet: { type: 'boolean' },
    ...FORM_SETTINGS,
  }),
  ShortForm: objectOf({
    id: string,
    name: string,
    type: { enum: [...FORM_TYPES] },
    emoji: nullable(string),
    status: { enum: ['active', 'paused'] },
    key: string,
    endpoint: string,
    createdAt: dateTime,
    submissionCount: { type: 'integer', minimum: 0 },
    unreadCount: { type: 'integer', minimum: 0 },
  }),
  Submission: {
    type: 'object',
    properties: {
      id: string,
      formId: string,
      data: {
        type: 'object',
        description: 'Answers by name; `_invalid` lists the field checks that failed.',
      },
      meta: {
        type: 'object',
        properties: {
          ip: string,
          userAgent: string,
          referrer: string,
          country: string,
          deviceClass: { enum: ['mobile', 'desktop', 'tablet', 'bot'] },
          files: {
            type: 'array',
            items: objectOf({ name: string, mime: string, size: { type: 'integer' } }),
          },
        },
        required: ['userAgent', 'referrer'],
      },
      read: { type: 'boolean' },
      starred: { type: 'boolean' },
      isSpam: { type: 'boolean' },
      isTest: { type: 'boolean' },
      createdAt: dateTime,
      preview: { type: 'string', description: 'In lists only.' },
    },
    required: ['id', 'formId', 'data', 'meta', 'read', 'starred', 'isSpam', 'isTest', 'createdAt'],
  },
  Webhook: objectOf({
    formId: string,
    url: string,
    secret: { type: 'string', pattern: '^whsec_' },
    state: { enum: ['active', 'failing'] },
    lastError: nullable(string),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  Delivery: objectOf({
    deliveryId: string,
    submissionId: string,
    webhookId: { type: 'string', pattern: '^msg_' },
    status: { enum: [...DELIVERY_STATUSES] },
    cancelReason: nullable({ enum: [...CANCEL_REASONS] }),
    attemptCount: { type: 'integer', minimum: 0 },
    nextAttemptAt: nullable(dateTime),
    attempts: {
      type: 'array',
      items: objectOf({
        number: { type: 'integer', minimum: 1 },
        at: dateTime,
        outcome: { enum: ['delivered', 'retrying', 'failed'] },
        responseStatus: nullable({ type: 'integer' }),
        durationMs: { type: 'number', minimum: 0 },
        responseBody: nullable(string),
        error: nullable(string),
        nextAttemptAt: nullable(dateTime),
      }),
    },
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  WebhookPayload: WEBHOOK_PAYLOAD,
};

/** The document. Deterministic: the same table and schemas give the same JSON. */
export function buildOpenApiDocument(table: readonly Route[] = routes): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of table.filter(documentedRoute)) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Form service API',
      version: '1',
      description:
        'Hosted form backend: the public submit endpoint (`/s/{key}`), the management API (`/v1`, `Authorization: Bearer <API key>`, 300 requests a minute per key) and signed webhooks. Every response carries `x-request-id`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The deployment’s base URL.' }],
    tags: [
      { name: 'Submit', description: 'The public submit endpoint.' },
      { name: 'Forms', description: 'Forms API.' },
      { name: 'Submissions', description: 'Submissions API.' },
      { name: 'Webhooks', description: 'Webhook settings and deliveries.' },
      { name: 'Hosted forms', description: 'The hosted form page and the embed.' },
      { name: 'Sign-in', description: 'Email sign-in and dashboard sessions.' },
      { name: 'Team', description: 'The team: members, API keys, the audit trail (owners).' },
      { name: 'Docs', description: 'This document.' },
    ],
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
            'A dashboard session (POST /v1/auth/verify sets it). Changes need Sec-Fetch-Site: same-origin or an Origin equal to the service’s (else 403 csrf).',
        },
      },
      schemas: COMPONENT_SCHEMAS,
      responses: Object.fromEntries(
        Object.keys(ERRORS)
          // Only the statuses some operation refers to (the submit endpoint inlines its own).
          .filter((status) =>
            JSON.stringify(paths).includes(`"#/components/responses/${errorName(status)}"`),
          )
          .map((status) => [errorName(status), errorResponse(status)]),
      ),
    },
  };
}

/** The document as `openapi.json` holds it: two-space JSON and a final newline. */
export function openApiJson(table: readonly Route[] = routes): string {
  return `${JSON.stringify(buildOpenApiDocument(table), null, 2)}\n`;
}
