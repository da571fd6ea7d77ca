/**
 * `npm run bench:submit [-- --posts N --concurrency C --files]`: the submit
 * endpoint on the local stack. Prints throughput and latency over real HTTP,
 * the handler's own CPU time per request (measured one request at a time, as
 * a Lambda container runs them), the bundle size and the cold module init.
 * With `--files` every post is multipart with one 20 KB file (a Pro form that
 * takes uploads): the path that stores files in S3 before the transaction.
 */
import { parseArgs } from 'node:util';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { meterDynamoDb, routeCallsOnly } from '#test/support/dynamodb-meter.ts';
import { type BenchStack, withBenchStack } from './bench-stack.ts';
import { bundleOf, coldInit } from './bundle.ts';

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
    'cpu-samples': { type: 'string', default: '300' },
    files: { type: 'boolean', default: false },
  },
});
const FILES = values.files;
/** The file of a `--files` post: 20 KB, the size of a small PDF. */
const FILE = Buffer.alloc(20 * 1024, 'bench file ');
const POSTS = Number(values.posts);
const CONCURRENCY = Number(values.concurrency);
const CPU_SAMPLES = Number(values['cpu-samples']);

// The bench measures the path, not the limits: lift them before anything reads config.
process.env.SUBMIT_RATE_PER_FORM_PER_MINUTE = '100000000';
process.env.PRO_MONTHLY_SUBMISSIONS = '100000000';
// Every HTTP post comes from 127.0.0.1.
process.env.SUBMIT_RATE_PER_IP_PER_MINUTE = '100000000';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Pro texts and 12 fields: a form item of about 6.4 KB. */
const LARGE_SETTINGS = {
  fields: Array.from({ length: 12 }, (_, i) => ({
    id: `field${i}`,
    type: 'text',
    label: `Question number ${i} with a label long enough to be realistic`,
    required: false,
  })),
  completionMode: 'message',
  completionTitle: 'Thank you',
  completionMessage: 'Thank you! We read every message and answer within a day. '.repeat(12),
  autoreplyEnabled: false,
  autoreplySubject: 'We received your message',
  autoreplyBody: 'Hello, thank you for writing to us. We will answer soon. '.repeat(30),
};

/**
 * A form at the logic's limits (docs/forms.md#logic): 30 fields on 10 pages,
 * each field after the first three shown on a group of 10 conditions, each
 * page's 10 rules of 10 conditions. The posts answer name, email and message:
 * the walk reads every condition, and the fields it does not reach are empty.
 */
const LOGIC_SETTINGS = (() => {
  const first = [
    { id: 'name', type: 'text', required: true },
    { id: 'email', type: 'email', required: true },
    { id: 'message', type: 'textarea' },
  ];
  const ten = (i: number) =>
    Array.from({ length: 10 }, (_, j) => ({
      field: first[(i + j) % 3]!.id,
      op: j % 2 === 0 ? 'notEmpty' : 'contains',
      ...(j % 2 === 0 ? {} : { value: 'e' }),
    }));
  const others = Array.from({ length: 27 }, (_, i) => ({
    id: `q${i}`,
    type: 'text',
    requiredIf: { any: ten(i) },
    showIf: { all: ten(i + 1) },
  }));
  const ids = [...first, ...others].map((field) => field.id);
  const pages = Array.from({ length: 10 }, (_, p) => ({
    id: `page${p}`,
    fields: ids.slice(p * 3, p * 3 + 3),
    next:
      p < 9
        ? Array.from({ length: 10 }, (_, r) => ({
            if: { all: ten(r).map((c) => ({ ...c, op: 'empty', value: undefined })) },
            goTo: `page${p + 1}`,
          }))
        : [],
  }));
  return { fields: [...first, ...others], pages };
})();

await withBenchStack(async ({ stack, api, newForm }) => {
  const { baseUrl } = stack.info;
  const form = await newForm('Bench');
  if (FILES) await allowUploads(api, form.id);
  const post = async (i: number) => {
    const started = performance.now();
    const answers = {
      name: `Visitor ${i}`,
      email: `visitor${i}@example.com`,
      message: `Bench message number ${i}, long enough to look like a real one.`,
    };
    const response = await fetch(`${baseUrl}/s/${form.key}`, {
      method: 'POST',
      ...(FILES
        ? { body: multipartOf(answers, i) }
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(answers) }),
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`post ${i} answered ${response.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 50; i++) await post(-i - 1);

  // Throughput and latency over HTTP.
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < POSTS) latencies.push(await post(next++));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);

  // Handler CPU, one request at a time: what one Lambda container spends.
  const { handler } = await import('#http/submit/submit.ts');
  const cpu: number[] = [];
  for (let i = 0; i < CPU_SAMPLES; i++) {
    const event = submitEvent(form.key, i);
    const before = process.cpuUsage();
    const result = await handler(event, {} as Context);
    const used = process.cpuUsage(before);
    if (result.statusCode !== 200) throw new Error(`handler answered ${result.statusCode}`);
    cpu.push((used.user + used.system) / 1000);
  }
  cpu.sort((a, b) => a - b);

  // The same for a form at the logic's limits: the walk's cost in the handler.
  const logic = await newForm('Bench logic');
  const logicPatched = await api('PATCH', `/v1/forms/${logic.id}`, LOGIC_SETTINGS);
  if (logicPatched.status !== 200) {
    throw new Error(`PATCH logic form answered ${logicPatched.status}`);
  }
  const logicCpu: number[] = [];
  for (let i = 0; i < CPU_SAMPLES; i++) {
    const event = submitEvent(logic.key, 60_000 + i);
    const before = process.cpuUsage();
    const result = await handler(event, {} as Context);
    const used = process.cpuUsage(before);
    if (result.statusCode !== 200) throw new Error(`handler answered ${result.statusCode}`);
    logicCpu.push((used.user + used.system) / 1000);
  }
  logicCpu.sort((a, b) => a - b);

  // Capacity per accepted post, as DynamoDB bills it: reads and writes the
  // handler's client consumed (indexes included), for a plain form and for
  // one whose settings make a 6.4 KB item (12 fields, long texts).
  const { dynamodb } = await import('#store/client.ts');
  const { meter, reset } = meterDynamoDb(dynamodb, routeCallsOnly);
  const large = await newForm('Bench large');
  const patched = await api('PATCH', `/v1/forms/${large.id}`, LARGE_SETTINGS);
  if (patched.status !== 200) throw new Error(`PATCH large form answered ${patched.status}`);
  if (FILES) await allowUploads(api, large.id);
  // `keyed`: each post with its own Idempotency-Key; `replayed`: each post a retry of one
  // keyed post (docs/submit.md#idempotency-key).
  // `hashed`: plain posts of a team that keeps keyed hashes of addresses (docs/people.md#visitor-addresses).
  const capacityOf = async (
    key: string,
    mode: 'plain' | 'keyed' | 'replayed' | 'hashed' = 'plain',
  ) => {
    for (let i = 0; i < 5; i++) await handler(submitEvent(key, 10_000 + i), {} as Context);
    if (mode === 'replayed') await handler(submitEvent(key, 30_000, 'replayed'), {} as Context);
    reset();
    const n = 50;
    for (let i = 0; i < n; i++) {
      const event =
        mode === 'replayed'
          ? submitEvent(key, 30_000, 'replayed')
          : mode === 'keyed'
            ? // Answers of their own: the plain run's would be duplicates, stored as spam.
              submitEvent(key, 40_000 + i, `bench-key-${key}-${i}`)
            : submitEvent(key, (mode === 'hashed' ? 50_000 : 20_000) + i);
      const result = await handler(event, {} as Context);
      if (result.statusCode !== 200) throw new Error(`handler answered ${result.statusCode}`);
      const replay = result.headers?.['idempotent-replayed'] === 'true';
      if (replay !== (mode === 'replayed')) throw new Error(`post ${i} replayed: ${replay}`);
    }
    return {
      writeUnitsPerPost: Number((meter.writeCapacity / n).toFixed(2)),
      readUnitsPerPost: Number((meter.readCapacity / n).toFixed(2)),
      unitsPerPostByCall: Object.fromEntries(
        Object.entries(meter.byCommand).map(([name, units]) => [
          name.replace(/Command$/, ''),
          Number((units / n).toFixed(2)),
        ]),
      ),
    };
  };
  const capacity = {
    plainForm: await capacityOf(form.key),
    plainFormWithKey: await capacityOf(form.key, 'keyed'),
    replayOfAKeyedPost: await capacityOf(form.key, 'replayed'),
    largeForm: await capacityOf(large.key),
    largeFormWithKey: await capacityOf(large.key, 'keyed'),
    logicForm: await capacityOf(logic.key),
    plainFormOfAHashingTeam: await (async () => {
      const set = await api('PATCH', '/v1/team', { ipStorage: 'keyedHash' });
      if (set.status !== 200) throw new Error(`PATCH team answered ${set.status}`);
      return capacityOf(form.key, 'hashed');
    })(),
    // The duplicate rule off (docs/submit.md#link-spam-and-duplicates): no mark is claimed.
    plainFormWithoutDuplicateRule: await (async () => {
      const off = await newForm('Bench no duplicates');
      const set = await api('PATCH', `/v1/forms/${off.id}`, { markDuplicates: false });
      if (set.status !== 200) throw new Error(`PATCH form answered ${set.status}`);
      if (FILES) await allowUploads(api, off.id);
      return capacityOf(off.key);
    })(),
  };

  const bundle = await bundleOf('http/submit/submit.ts');
  const init = coldInit(bundle.file, 5);
  const report = {
    files: FILES,
    posts: POSTS,
    concurrency: CONCURRENCY,
    throughputPerSecond: Math.round(POSTS / seconds),
    latencyMs: {
      p50: Number(percentile(latencies, 50).toFixed(1)),
      p99: Number(percentile(latencies, 99).toFixed(1)),
    },
    handlerCpuMsPerRequest: {
      p50: Number(percentile(cpu, 50).toFixed(2)),
      p99: Number(percentile(cpu, 99).toFixed(2)),
    },
    logicFormHandlerCpuMsPerRequest: {
      p50: Number(percentile(logicCpu, 50).toFixed(2)),
      p99: Number(percentile(logicCpu, 99).toFixed(2)),
    },
    capacity,
    bundleBytes: bundle.bytes,
    coldModuleInitMs: init,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
});

async function allowUploads(api: BenchStack['api'], formId: string): Promise<void> {
  const allowed = await api('PATCH', `/v1/forms/${formId}`, { allowUploads: true });
  if (allowed.status !== 200) throw new Error(`PATCH allowUploads answered ${allowed.status}`);
}

/** A multipart body with the answers and one file named after the post. */
function multipartOf(answers: Record<string, string>, i: number): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(answers)) body.append(name, value);
  body.append('attachment', new Blob([FILE], { type: 'application/pdf' }), `bench-${i}.pdf`);
  return body;
}

function submitEvent(key: string, i: number, idempotencyKey?: string): APIGatewayProxyEvent {
  const answers = { name: `CPU ${i}`, email: `cpu${i}@example.com`, message: 'Measured' };
  const boundary = 'bench-boundary';
  const body = FILES
    ? Buffer.concat([
        Buffer.from(
          Object.entries(answers)
            .map(
              ([name, value]) =>
                `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
            )
            .join('') +
            `--${boundary}\r\ncontent-disposition: form-data; name="attachment"; filename="cpu-${i}.pdf"\r\ncontent-type: application/pdf\r\n\r\n`,
        ),
        FILE,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]).toString('base64')
    : JSON.stringify(answers);
  return {
    resource: '/s/{key}',
    path: `/s/${key}`,
    httpMethod: 'POST',
    headers: {
      'content-type': FILES ? `multipart/form-data; boundary=${boundary}` : 'application/json',
      'user-agent': 'bench/1',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { key },
    stageVariables: null,
    body,
    isBase64Encoded: FILES,
    requestContext: {
      requestId: `bench-${i}`,
      identity: { sourceIp: `198.51.100.${(i % 250) + 1}` },
    } as APIGatewayProxyEvent['requestContext'],
  };
}
