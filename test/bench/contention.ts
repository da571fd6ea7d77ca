/**
 * `npm run bench:contention [-- --posts N --concurrency 50,200,1000 --hold-ms 5
 * --in-flight-ms 10|real --cell-seconds S --shapes one-form,team-20-forms,20-teams]`:
 * how posts meet on the items every post's transaction writes, under a MODEL
 * of DynamoDB's transaction conflicts (./contention-model.ts; DynamoDB Local
 * runs transactions one at a time and never reports a conflict).
 *
 * A local stack in this process; the model on the handlers' DynamoDB
 * client; then, per shape and concurrency, N JSON posts over real HTTP to the
 * local gateway (distinct answers: no duplicates, no spam; rate limits and
 * the monthly allowance lifted). Shapes: one form; one team's 20 forms
 * (posts round-robin); 20 teams with one form each. Fresh forms per cell.
 * Prints per cell posts stored per second, the transactions the model
 * cancelled (and on which kind of item), `503 busy` answers, p50/p99
 * latency of every answer, the peak commits per second on the hottest
 * form and usage item, and the partition key stored posts write most (with
 * the posts a second one partition's 1,000 WCU allow); a table, then one
 * JSON line.
 */

import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { withBenchStack } from './bench-stack.ts';
import {
  type ContentionModel,
  type ContentionStats,
  installContentionModel,
  kindOf,
  nameOf,
} from './contention-model.ts';

const SHAPES = {
  'one-form': '1 form',
  'team-20-forms': '1 team × 20 forms',
  '20-teams': '20 teams × 1 form',
} as const;
type Shape = keyof typeof SHAPES;

/** What DynamoDB gives one partition a second (write units). */
const PARTITION_WCU_PER_SECOND = 1000;

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '50,200,1000' },
    shapes: { type: 'string', default: Object.keys(SHAPES).join(',') },
    'hold-ms': { type: 'string', default: '5' },
    'in-flight-ms': { type: 'string', default: '10' },
    'cell-seconds': { type: 'string', default: '30' },
  },
});
const POSTS = Number(values.posts);
const CONCURRENCIES = values.concurrency.split(',').map(Number);
const CELL_MS = Number(values['cell-seconds']) * 1000;
const HOLD_MS = Number(values['hold-ms']);
const IN_FLIGHT_MS: number | 'real' =
  values['in-flight-ms'] === 'real' ? 'real' : Number(values['in-flight-ms']);
const shapes = values.shapes.split(',') as Shape[];
const bad = (what: string) => {
  process.stderr.write(`${what}\n`);
  process.exit(2);
};
if (!Number.isInteger(POSTS) || POSTS < 1) bad('--posts must be a whole number >= 1');
if (CONCURRENCIES.some((c) => !Number.isInteger(c) || c < 1)) bad('--concurrency: whole numbers');
if (!(CELL_MS > 0)) bad('--cell-seconds must be > 0');
if (!(HOLD_MS >= 0)) bad('--hold-ms must be >= 0');
if (IN_FLIGHT_MS !== 'real' && !(IN_FLIGHT_MS >= 0)) bad('--in-flight-ms: a number >= 0 or real');
for (const shape of shapes) if (!(shape in SHAPES)) bad(`unknown shape ${shape}`);

/** Forms (and teams) per multi-form shape. */
const SPREAD = 20;
const WARM_UP_POSTS = 40;
/** Workers (connections) started together, and the pause before the next batch. */
const RAMP_BATCH = 50;
const RAMP_STEP_MS = 100;
/** After a cell: quiet this long (longer than the store's 1 s maximum backoff), at most SETTLE_MAX_MS. */
const SETTLE_QUIET_MS = 3_000;
const SETTLE_MAX_MS = 30_000;
/** A post unanswered this long is given up (counted as `no answer`). */
const POST_TIMEOUT_MS = 60_000;
const cells = shapes.length * CONCURRENCIES.length;
/** The whole bench, stack start and stop included, ends by itself past this. */
const WATCHDOG_MS = 120_000 + cells * (CELL_MS + POST_TIMEOUT_MS + SETTLE_MAX_MS);
const watchdog = setTimeout(() => {
  process.stderr.write(`bench:contention did not finish in ${WATCHDOG_MS} ms; giving up\n`);
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

// The bench measures contention, not the limits: lift them before anything reads config.
process.env.SUBMIT_RATE_PER_FORM_PER_MINUTE = '100000000';
process.env.SUBMIT_RATE_PER_IP_PER_MINUTE = '100000000';
process.env.PRO_MONTHLY_SUBMISSIONS = '100000000';

const MODEL_NOTE = [
  'THIS IS A MODEL, not DynamoDB. DynamoDB Local runs every request one at a time, so it never',
  'reports a transaction conflict. A middleware on the handlers’ DynamoDB client applies',
  'DynamoDB’s rule instead: a TransactWriteItems naming an item (pk+sk) that another transaction',
  'holds is cancelled whole with TransactionCanceledException / TransactionConflict (the SDK',
  'deserialises the same HTTP answer AWS sends, so the store retries it as in production).',
  IN_FLIGHT_MS === 'real'
    ? `Hold: from send until DynamoDB Local answers (its real time, every queue included: overstates), then ${HOLD_MS} ms after a commit.`
    : `Hold: ${IN_FLIGHT_MS} ms modelled in flight + ${HOLD_MS} ms after commit = ${IN_FLIGHT_MS + HOLD_MS} ms from send, whatever DynamoDB Local takes.`,
  'Assumptions: the later of two overlapping transactions is cancelled and a cancelled one holds',
  'nothing; single-item writes never conflict; no per-item or per-partition throughput limit',
  '(≈1,000 WCU/s) is modelled: the peak commits/s on the hottest items, and the writes a stored',
  'post makes on its most written partition key, are printed to compare.',
  'Underneath, DynamoDB Local’s serial execution bounds posts/s (AWS would be far faster), and',
  'posts go over HTTP to the in-process local gateway, handlers sharing one process and 2 cores.',
  IN_FLIGHT_MS === 'real'
    ? 'One item takes at most one transaction per DynamoDB Local answer time + hold.'
    : `One item takes at most 1000 / ${IN_FLIGHT_MS + HOLD_MS} ≈ ${Math.floor(1000 / (IN_FLIGHT_MS + HOLD_MS))} transactions/s in the model; DynamoDB Local's ceiling may sit below that.`,
  'A cancellation counts under each kind of item it met held (one post holds its form and usage',
  'items together). The bench forms have owner notifications off; posts carry distinct answers.',
].join('\n');

const LEGEND = [
  'posts/s: stored posts over the cell (first post sent to last answer). Conflicts: transactions',
  'the model cancelled; tx attempts: every TransactWriteItems the store sent (one per try). p50/p99:',
  'every answer over HTTP. 502: the local runtime ended the submit function at its 20 s timeout,',
  'the local stack past its capacity (posts in flight ÷ DynamoDB Local’s posts/s > 20 s), not the',
  'model; on AWS each post has its own Lambda. tx in flight: DynamoDB Local’s real answer time.',
].join('\n');

interface Target {
  key: string;
}

type Post = (
  agent: Agent,
  target: Target,
) => Promise<{ status: number; ms: number; error?: string }>;

/** One request over `agent`: the status and the body as text. */
function httpSend(
  agent: Agent,
  method: string,
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
        timeout: POST_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', reject);
    req.end(body);
  });
}

interface Cell {
  shape: Shape;
  concurrency: number;
  posts: number;
  stored: number;
  seconds: number;
  postsPerSecond: number;
  conflicts: number;
  conflictsOn: { form: number; usage: number; other: number };
  transactions: number;
  busy503: number;
  otherAnswers: Record<string, number>;
  latencyMs: { p50: number; p99: number };
  storedLatencyMs: { p50: number; p99: number };
  transactionInFlightMs: { p50: number; p99: number };
  hottest: {
    form: { item: string; peakCommitsPerSecond: number; wcuPerWrite: number };
    usage: { item: string; peakCommitsPerSecond: number; wcuPerWrite: number };
  };
  /** The partition key most written by stored posts' transactions, and what that caps. */
  hottestPartition: { partition: string; writesPerStoredPost: number; postsPerSecondCap: number };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const pair = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n);
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)) };
};

await withBenchStack(async (bench) => {
  const { stack } = bench;
  const { dynamodb } = await import('#store/client.ts');
  const { createTeamWithKey } = await import('#lib/admin/accounts.ts');
  const model = installContentionModel(dynamodb, { holdMs: HOLD_MS, inFlightMs: IN_FLIGHT_MS });
  const { baseUrl } = stack.info;

  // Management calls on connections of their own, closed after each answer.
  const oneShot = new Agent({ keepAlive: false });
  const manage = async (apiKey: string, method: string, path: string, body: unknown) => {
    const answer = await httpSend(oneShot, method, `${baseUrl}${path}`, JSON.stringify(body), {
      authorization: `Bearer ${apiKey}`,
    });
    return { status: answer.status, body: JSON.parse(answer.text) as Record<string, unknown> };
  };
  const formFor = async (apiKey: string, name: string): Promise<Target> => {
    const created = await manage(apiKey, 'POST', '/v1/forms', { name, type: 'contact' });
    if (created.status !== 201) throw new Error(`form create answered ${created.status}`);
    const form = created.body as { id: string; key: string };
    // No owner notification: the email pipeline is downstream of the transaction measured.
    const patched = await manage(apiKey, 'PATCH', `/v1/forms/${form.id}`, { notifyEnabled: false });
    if (patched.status !== 200) throw new Error(`form update answered ${patched.status}`);
    return { key: form.key };
  };
  const teamKeys: string[] = [];
  if (shapes.includes('20-teams')) {
    for (let t = 0; t < SPREAD; t++) {
      const created = await createTeamWithKey({
        name: `Contention bench ${t}`,
        ownerEmail: `contention${t}@bench.local`,
        plan: 'pro',
      });
      teamKeys.push(created.apiKey);
    }
  }
  const targetsFor = async (shape: Shape, tag: string): Promise<Target[]> => {
    const proKey = stack.info.apiKeys.pro;
    if (shape === 'one-form') return [await formFor(proKey, `Contention ${tag}`)];
    const keys = shape === 'team-20-forms' ? Array(SPREAD).fill(proKey) : teamKeys;
    const targets: Target[] = [];
    for (const [i, key] of keys.entries())
      targets.push(await formFor(key, `Contention ${tag} ${i}`));
    return targets;
  };

  let serial = 0;
  const post: Post = async (agent, target) => {
    const n = serial++;
    const body = JSON.stringify({
      name: `Visitor ${n}`,
      email: `visitor${n}@example.com`,
      message: `Contention bench message number ${n}, long enough to look like a real one.`,
    });
    const started = performance.now();
    try {
      const answer = await httpSend(agent, 'POST', `${baseUrl}/s/${target.key}`, body);
      const ms = performance.now() - started;
      if (answer.status === 200) return { status: 200, ms };
      let error: string | undefined;
      try {
        error = (JSON.parse(answer.text) as { error?: string }).error;
      } catch {
        error = undefined;
      }
      return { status: answer.status, ms, error };
    } catch (error) {
      // No HTTP answer (connection reset, timeout): counted apart, the bench goes on.
      const code = (error as { code?: string }).code ?? (error as Error).message;
      return { status: 0, ms: performance.now() - started, error: `no answer: ${code}` };
    }
  };

  // Warm-up: module loads and JIT, not measured.
  const warm = await targetsFor('one-form', 'warm-up');
  const warmAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < WARM_UP_POSTS; i++) await post(warmAgent, warm[0]!);
  warmAgent.destroy();

  const results: Cell[] = [];
  process.stderr.write(`${MODEL_NOTE}\n\n`);
  for (const shape of shapes) {
    for (const concurrency of CONCURRENCIES) {
      const targets = await targetsFor(shape, `${shape} c${concurrency}`);
      const cell = await runCell(model, dynamodb, post, { shape, concurrency, targets });
      results.push(cell);
      process.stderr.write(`${row(cell)}\n`);
    }
  }

  process.stdout.write(`\n${MODEL_NOTE}\n\n${header()}\n${results.map(row).join('\n')}\n\n`);
  process.stdout.write(`${LEGEND}\n\n${hottestLines(results)}\n\n`);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'contention',
      model: {
        holdMs: HOLD_MS,
        inFlightMs: IN_FLIGHT_MS,
        perItemThroughputLimit: 'not modelled',
      },
      postsPerCell: POSTS,
      cellCapSeconds: CELL_MS / 1000,
      cells: results,
    })}\n`,
  );
});

async function runCell(
  model: ContentionModel,
  dynamodb: Awaited<typeof import('#store/client.ts')>['dynamodb'],
  post: Post,
  cell: { shape: Shape; concurrency: number; targets: Target[] },
): Promise<Cell> {
  const { targets, concurrency } = cell;
  model.reset();
  const latencies: number[] = [];
  const storedLatencies: number[] = [];
  const answers: Record<string, number> = {};
  let next = 0;
  let stored = 0;
  let busy = 0;
  // One connection per worker, fresh per cell (no idle socket of an earlier cell is reused just as
  // the gateway drops it). Workers start 50 every 100 ms: 1,000 connects at once overflow the
  // gateway's accept queue (Node's backlog, 511; the overflow comes back as resets 15 s later), and
  // 1,000 posts in the same millisecond queue every handler's reads behind each other (one
  // process, one SDK client of 50 sockets, a serial DynamoDB Local) until all of them pass the
  // submit function's 20 s timeout together.
  const agents = Array.from(
    { length: concurrency },
    () => new Agent({ keepAlive: true, maxSockets: 1 }),
  );
  const started = performance.now();
  const deadline = started + CELL_MS;
  await Promise.all(
    agents.map(async (agent, worker) => {
      await sleep(Math.floor(worker / RAMP_BATCH) * RAMP_STEP_MS);
      while (next < POSTS && performance.now() < deadline) {
        const target = targets[next++ % targets.length]!;
        const answer = await post(agent, target);
        latencies.push(answer.ms);
        if (answer.status === 200) {
          stored += 1;
          storedLatencies.push(answer.ms);
        } else if (answer.status === 503 && answer.error === 'busy') busy += 1;
        else {
          const name =
            answer.status === 0 ? answer.error! : `${answer.status} ${answer.error ?? ''}`.trim();
          answers[name] = (answers[name] ?? 0) + 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const agent of agents) agent.destroy();
  // A handler the gateway timed out (502) runs on locally: wait until no transaction has been
  // tried for a while, so the cell's late ones count here and not in the next cell.
  let seen = -1;
  for (const quietBy = performance.now() + SETTLE_MAX_MS; performance.now() < quietBy; ) {
    if (model.stats.transactions === seen) break;
    seen = model.stats.transactions;
    await sleep(SETTLE_QUIET_MS);
  }
  const stats = model.stats;
  const hottest = await hottestItems(stats, dynamodb);
  return {
    shape: cell.shape,
    concurrency,
    posts: latencies.length,
    stored,
    seconds: Number(seconds.toFixed(1)),
    postsPerSecond: Number((stored / seconds).toFixed(1)),
    conflicts: stats.conflicts,
    conflictsOn: {
      form: stats.conflictsOn.form,
      usage: stats.conflictsOn.usage,
      other:
        stats.conflictsOn.submission +
        stats.conflictsOn.duplicateMark +
        stats.conflictsOn.spamQuota +
        stats.conflictsOn.other,
    },
    transactions: stats.transactions,
    busy503: busy,
    otherAnswers: answers,
    latencyMs: pair(latencies),
    storedLatencyMs: pair(storedLatencies),
    transactionInFlightMs: pair(stats.inFlightMs),
    hottest,
    hottestPartition: hottestPartitionOf(stats, stored),
  };
}

/**
 * The partition key stored posts' transactions write most, in writes per
 * stored post, and the posts a second that key allows at DynamoDB's 1,000
 * WCU a second per partition (a transactional write of ≤ 1 KB costs 2),
 * before the list-index entries (1 WCU each, on the index's partition) and
 * before split for heat, which may part fixed sort keys (counter shards)
 * from the ever-growing ones (submissions).
 */
function hottestPartitionOf(stats: ContentionStats, stored: number): Cell['hottestPartition'] {
  let best = { partition: '', writes: 0 };
  for (const [partition, writes] of stats.writesPerPartition) {
    if (writes > best.writes) best = { partition, writes };
  }
  const perPost = stored > 0 ? best.writes / stored : 0;
  return {
    partition: best.partition,
    writesPerStoredPost: Number(perPost.toFixed(2)),
    postsPerSecondCap: perPost > 0 ? Math.round(PARTITION_WCU_PER_SECOND / (2 * perPost)) : 0,
  };
}

/** The form item and the usage item with the most commits in one second, and their write cost. */
async function hottestItems(
  stats: ContentionStats,
  dynamodb: Awaited<typeof import('#store/client.ts')>['dynamodb'],
): Promise<Cell['hottest']> {
  const best = { form: { item: '', peak: 0 }, usage: { item: '', peak: 0 } };
  for (const [item, perSecond] of stats.commitsPerSecond) {
    const kind = kindOf(item);
    if (kind !== 'form' && kind !== 'usage') continue;
    const peak = Math.max(...perSecond.values());
    if (peak > best[kind].peak) best[kind] = { item, peak };
  }
  const describe = async ({ item, peak }: { item: string; peak: number }) => ({
    item: item ? nameOf(item) : '',
    peakCommitsPerSecond: peak,
    wcuPerWrite: item ? 2 * Math.max(1, Math.ceil((await itemBytes(item, dynamodb)) / 1024)) : 0,
  });
  return { form: await describe(best.form), usage: await describe(best.usage) };
}

/** The item's size as DynamoDB counts it, approximately (names and values in bytes). */
async function itemBytes(
  item: string,
  dynamodb: Awaited<typeof import('#store/client.ts')>['dynamodb'],
): Promise<number> {
  const [table, pkJson, skJson] = item.split('\u0000');
  const { Item } = await dynamodb.send(
    new GetItemCommand({
      TableName: table,
      Key: { pk: JSON.parse(pkJson!), sk: JSON.parse(skJson!) },
    }),
  );
  return Item ? mapBytes(Item) : 0;
}

function utf8(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
function mapBytes(map: Record<string, unknown>): number {
  let total = 0;
  for (const [name, value] of Object.entries(map)) total += utf8(name) + valueBytes(value);
  return total;
}
function valueBytes(value: unknown): number {
  const [type, v] = Object.entries(value as Record<string, unknown>)[0]!;
  switch (type) {
    case 'S':
      return utf8(v as string);
    case 'N':
      return Math.ceil(String(v).replace(/[-.]/g, '').length / 2) + 1;
    case 'B':
      return (v as Uint8Array).byteLength;
    case 'BOOL':
    case 'NULL':
      return 1;
    case 'SS':
      return (v as string[]).reduce((sum, s) => sum + utf8(s), 0);
    case 'NS':
      return (v as string[]).reduce((sum, n) => sum + Math.ceil(n.length / 2) + 1, 0);
    case 'L':
      return 3 + (v as unknown[]).reduce<number>((sum, e) => sum + 1 + valueBytes(e), 0);
    case 'M':
      return 3 + mapBytes(v as Record<string, unknown>) + Object.keys(v as object).length;
    default:
      return 0;
  }
}

function header(): string {
  return [
    '| shape | concurrency | posts | stored | posts/s | conflicts (form / usage / other) | tx attempts | 503 busy | other answers | p50 ms | p99 ms | tx in flight p50 ms |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ].join('\n');
}

function row(cell: Cell): string {
  const others = Object.entries(cell.otherAnswers)
    .map(([answer, count]) => `${count} × ${answer}`)
    .join(', ');
  const on = cell.conflictsOn;
  return `| ${SHAPES[cell.shape]} | ${cell.concurrency} | ${cell.posts} | ${cell.stored} | ${cell.postsPerSecond} | ${cell.conflicts} (${on.form} / ${on.usage} / ${on.other}) | ${cell.transactions} | ${cell.busy503} | ${others || '0'} | ${cell.latencyMs.p50} | ${cell.latencyMs.p99} | ${cell.transactionInFlightMs.p50} |`;
}

function hottestLines(results: Cell[]): string {
  const lines = [
    'Hottest items, peak commits in one second × write units per transactional write:',
  ];
  for (const cell of results) {
    const { form, usage } = cell.hottest;
    const wcu = (h: typeof form) =>
      `${h.peakCommitsPerSecond}/s × ${h.wcuPerWrite} WCU = ${h.peakCommitsPerSecond * h.wcuPerWrite} WCU/s`;
    lines.push(
      `- ${SHAPES[cell.shape]}, ${cell.concurrency}: form item ${wcu(form)}; usage item ${wcu(usage)} (ceiling ≈ 1,000 WCU/s per item, not modelled)`,
    );
  }
  lines.push(
    '',
    'Hottest partition key, transactional writes per stored post → posts/s one partition allows (1,000 WCU/s, 2 WCU a write; not modelled in time):',
  );
  for (const cell of results) {
    const { partition, writesPerStoredPost, postsPerSecondCap } = cell.hottestPartition;
    lines.push(
      `- ${SHAPES[cell.shape]}, ${cell.concurrency}: ${partition || 'none'}: ${writesPerStoredPost} writes → ≈ ${postsPerSecondCap} posts/s`,
    );
  }
  return lines.join('\n');
}
