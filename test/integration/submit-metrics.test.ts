import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { admin } from '#test/support/admin.ts';
import { stack } from '#test/support/api.ts';
import { newForm, type TestForm } from '#test/support/forms.ts';
import { localStore } from '#test/support/store.ts';

/**
 * Done-when 4 of issue 15: the submit handler's business metrics, read as
 * the EMF lines it writes to stdout. The real handler runs in this process
 * against the test stack's table, with API Gateway proxy events built here
 * (so each test picks the caller's address and country).
 */

interface EmfLine {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[];
  };
  [key: string]: unknown;
}

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<{ statusCode: number }>;
let handler: Handler;

beforeAll(async () => {
  await localStore();
  ({ handler } = (await import('#http/submit/submit.ts')) as unknown as {
    handler: Handler;
  });
});

let visitors = 0;
/** A documentation-range address of its own, so no rate window is shared between tests. */
const freshIp = () => `198.51.${100 + (visitors >> 8)}.${++visitors & 255}`;

interface Post {
  body?: string;
  json?: Record<string, string>;
  contentType?: string;
  ip?: string;
  headers?: Record<string, string>;
}

function eventFor(form: TestForm, post: Post): APIGatewayProxyEvent {
  const body = post.json !== undefined ? JSON.stringify(post.json) : (post.body ?? '');
  return {
    httpMethod: 'POST',
    resource: '/s/{key}',
    path: `/s/${form.key}`,
    pathParameters: { key: form.key },
    headers: {
      'Content-Type': post.contentType ?? 'application/json',
      'User-Agent': 'submit-metrics-test',
      ...post.headers,
    },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: {
      requestId: `metrics-${crypto.randomUUID()}`,
      identity: { sourceIp: post.ip ?? freshIp() },
    } as APIGatewayProxyEvent['requestContext'],
  };
}

/** Runs the handler once; its status and every EMF line it wrote to stdout. */
async function post(form: TestForm, options: Post): Promise<{ status: number; emf: EmfLine[] }> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  let status: number;
  try {
    status = (await handler(eventFor(form, options), {} as Context)).statusCode;
  } finally {
    spy.mockRestore();
  }
  const emf = lines
    .map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return undefined;
      }
    })
    .filter(
      (parsed): parsed is EmfLine =>
        typeof parsed === 'object' &&
        parsed !== null &&
        (parsed as EmfLine)._aws?.CloudWatchMetrics?.[0]?.Namespace === 'FormService',
    );
  return { status, emf };
}

/** The one metric the post counted: its name and its dimensions (name → value). */
function onlyMetric(emf: EmfLine[], form: TestForm) {
  expect(emf).toHaveLength(1);
  const [line] = emf;
  const directive = line!._aws.CloudWatchMetrics[0]!;
  expect(directive.Metrics).toHaveLength(1);
  expect(directive.Dimensions).toHaveLength(1);
  const dimensions = Object.fromEntries(
    directive.Dimensions[0]!.map((name) => [name, line![name] as string]),
  );
  // No form id or key anywhere in the line, dimensions included.
  const text = JSON.stringify(line);
  expect(text).not.toContain(form.id);
  expect(text).not.toContain(form.key);
  expect(text).not.toContain(form.teamId);
  const name = directive.Metrics[0]!.Name;
  expect(line![name]).toBe(1);
  return { name, dimensions };
}

const service = { service: 'form-service' };

describe('submit metrics (EMF on stdout, one line per post)', () => {
  it('accepted: SubmissionAccepted, no dimension but the service', async () => {
    const form = await newForm('free');
    const { status, emf } = await post(form, { json: { email: 'ada@example.com', message: 'Hi' } });
    expect(status).toBe(200);
    expect(onlyMetric(emf, form)).toEqual({ name: 'SubmissionAccepted', dimensions: service });
  });

  it('spam by the link rule: SubmissionSpam rule=links', async () => {
    const form = await newForm('free');
    const { status, emf } = await post(form, {
      json: { message: 'http://a.example http://b.example http://c.example' },
    });
    expect(status).toBe(200);
    expect(onlyMetric(emf, form)).toEqual({
      name: 'SubmissionSpam',
      dimensions: { ...service, rule: 'links' },
    });
  });

  it('spam as a duplicate: the first is accepted, the second SubmissionSpam rule=duplicate', async () => {
    const form = await newForm('free');
    const answers = { email: 'grace@example.com', message: 'Same words twice' };
    // A duplicate: the same answers from the same visitor.
    const ip = freshIp();
    const first = await post(form, { json: answers, ip });
    expect(onlyMetric(first.emf, form).name).toBe('SubmissionAccepted');
    const second = await post(form, { json: answers, ip });
    expect(second.status).toBe(200);
    expect(onlyMetric(second.emf, form)).toEqual({
      name: 'SubmissionSpam',
      dimensions: { ...service, rule: 'duplicate' },
    });
  });

  it('dropped: SubmissionDropped by reason honeypot, fill_time, blocked_ip, blocked_country', async () => {
    const form = await newForm('free', { blockedIps: ['192.0.2.77'], blockedCountries: ['FR'] });
    const dropped = async (options: Post, reason: string) => {
      const { status, emf } = await post(form, options);
      expect(status).toBe(200);
      expect(onlyMetric(emf, form)).toEqual({
        name: 'SubmissionDropped',
        dimensions: { ...service, reason },
      });
    };
    await dropped({ json: { a: 'b', _gotcha: 'filled' } }, 'honeypot');
    await dropped({ json: { a: 'c', _t: String(Date.now() - 100) } }, 'fill_time');
    await dropped({ json: { a: 'd' }, ip: '192.0.2.77' }, 'blocked_ip');
    await dropped(
      { json: { a: 'e' }, headers: { 'CloudFront-Viewer-Country': 'FR' } },
      'blocked_country',
    );
    // Both lists match: the address is named, as it is checked first.
    await dropped(
      { json: { a: 'f' }, ip: '192.0.2.77', headers: { 'CloudFront-Viewer-Country': 'FR' } },
      'blocked_ip',
    );
  });

  it('dropped past the monthly spam cap: SubmissionDropped reason=spam_cap', async () => {
    const form = await newForm('free');
    // The month's spam counter as if the form had stored far more than any cap.
    const { documents } = await localStore();
    await documents.send(
      new PutCommand({
        TableName: stack().tableName,
        Item: {
          pk: `FORM#${form.id}`,
          sk: `SPAM#${new Date().toISOString().slice(0, 7)}`,
          entity: 'spamQuota',
          spam: 1_000_000_000,
        },
      }),
    );
    const { status, emf } = await post(form, {
      json: { message: 'http://a.example http://b.example http://c.example' },
    });
    expect(status).toBe(200);
    expect(onlyMetric(emf, form)).toEqual({
      name: 'SubmissionDropped',
      dimensions: { ...service, reason: 'spam_cap' },
    });
  });

  it('rejected: SubmissionRejected by status and code (402, 423, 415, 422, 413, 403, 404)', async () => {
    const rejected = async (form: TestForm, options: Post, status: string, code: string) => {
      const answer = await post(form, options);
      expect(answer.status).toBe(Number(status));
      expect(onlyMetric(answer.emf, form)).toEqual({
        name: 'SubmissionRejected',
        dimensions: { ...service, status, code },
      });
    };

    const limited = await newForm('free');
    const set = await admin('team', 'allowance', '--team', limited.teamId, '--submissions', '1');
    expect(set.code, set.stderr).toBe(0);
    expect((await post(limited, { json: { n: '1' } })).status).toBe(200);
    await rejected(limited, { json: { n: '2' } }, '402', 'submission_limit_reached');

    const paused = await newForm('free', { status: 'paused' });
    await rejected(paused, { json: { a: 'b' } }, '423', 'form_closed');

    const form = await newForm('free');
    await rejected(
      form,
      { body: 'hello', contentType: 'text/plain' },
      '415',
      'unsupported_media_type',
    );
    await rejected(form, { json: { a: '  ' } }, '422', 'empty_submission');
    await rejected(form, { json: { a: 'x'.repeat(210_000) } }, '413', 'payload_too_large');

    const guarded = await newForm('free', { allowedOrigins: ['https://allowed.example'] });
    await rejected(
      guarded,
      { json: { a: 'b' }, headers: { Origin: 'https://elsewhere.example' } },
      '403',
      'origin_not_allowed',
    );

    const missing = { ...form, key: 'no-such-form-key-0000' };
    await rejected(missing, { json: { a: 'b' } }, '404', 'not_found');
  });

  it('rejected: 429 rate_limited once the visitor is past the per-IP minute', async () => {
    const form = await newForm('free');
    const ip = freshIp();
    // Empty posts fail at step 7, after the rate limit has counted them. A
    // minute boundary may reset the window once, so keep posting until 429.
    let last: { status: number; emf: EmfLine[] } | undefined;
    for (let i = 0; i < 70; i++) {
      last = await post(form, { json: {}, ip });
      if (last.status === 429) break;
      expect(last.status).toBe(422);
    }
    expect(last!.status).toBe(429);
    expect(onlyMetric(last!.emf, form)).toEqual({
      name: 'SubmissionRejected',
      dimensions: { ...service, status: '429', code: 'rate_limited' },
    });
  });
});
