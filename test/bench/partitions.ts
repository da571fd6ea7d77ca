/**
 * `npm run bench:partitions [-- --posts N --concurrency C --deliveries webhook,email|none
 * --visitors V --unique]`: the partition model of ONE busy form, measured. N posts
 * (default 2,000) over real HTTP to one Pro form of an in-process local
 * stack, from V visitor addresses (127.2.x.y; default one per 8 posts, at
 * least 256), with a webhook to a local HTTPS receiver and owner emails on
 * (`--deliveries none`: neither), then every worker the posts set off left
 * to finish (fan-out, webhook and email workers, email events, the summary
 * rollup). `--unique`: the form takes one answer per email address (each post
 * its own), so the place each post takes is priced too.
 *
 * What is recorded, and how (nothing is modelled but the price list):
 * - every request of the stack's one DynamoDB client, in the SDK's build
 *   step (./partition-recorder.ts): each item a write names, its
 *   transaction or not, the function that sent it, and DynamoDB Local's own
 *   ConsumedCapacity (every request is asked for INDEXES);
 * - the table's stream from before the form was made to the end
 *   (./table-stream.ts): each committed item write with the item before and
 *   after; each is paired with its recorded write, and a stream record no
 *   recorded write explains is reported (a write this bench did not see);
 * - the write units of each item write, computed from those images by the
 *   rules DynamoDB bills by (./capacity-units.ts), because DynamoDB Local
 *   prices transactions otherwise: its figures are printed beside.
 *
 * Prints write units a post in total and per kind of item (submit path or
 * async, and which function), the hottest partition key of the table and of
 * each index, the hottest item, the hottest partition key for reads, and
 * what each allows one form at DynamoDB's 1,000 WCU (3,000 RCU) a partition
 * a second; then one JSON line.
 *
 * Limits: the form's rate limit is set to 60,000 a minute (1,000 posts a
 * second, the design's target, so its window is sharded as such a form's
 * would be), the monthly allowance lifted, the per-visitor limit left at its
 * default. Local's own speed (tens of posts a second) says nothing of AWS's.
 */
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { loopbackCertificate, trustCertificate } from '#lib/local/loopback-certificate.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';
import { withBenchStack } from './bench-stack.ts';
import { type Recording, recordDynamoDb } from './partition-recorder.ts';
import {
  hottest,
  hottestKeys,
  type KeyLoad,
  type Loads,
  loadsOf,
  PARTITION_RCU,
  PARTITION_WCU,
  type Post,
  pairAndPrice,
  shapeOf,
} from './partition-report.ts';
import { openTableStream } from './table-stream.ts';

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
    deliveries: { type: 'string', default: 'webhook,email' },
    visitors: { type: 'string' },
    // One answer per person (docs/forms.md#one-answer-per-person): the form's `unique` on its
    // email field; every post has its own address, so each takes a place.
    unique: { type: 'boolean', default: false },
  },
});
const UNIQUE = values.unique === true;
const POSTS = Number(values.posts);
const CONCURRENCY = Number(values.concurrency);
const DELIVERIES = new Set(values.deliveries.split(',').filter((d) => d !== 'none'));
const VISITORS = Number(values.visitors ?? Math.max(256, Math.ceil(POSTS / 8)));
const bad = (what: string) => {
  process.stderr.write(`${what}\n`);
  process.exit(2);
};
for (const [name, value] of [
  ['--posts', POSTS],
  ['--concurrency', CONCURRENCY],
  ['--visitors', VISITORS],
] as const) {
  if (!Number.isInteger(value) || value < 1) bad(`${name} must be a whole number >= 1`);
}
if (VISITORS > 250 * 250) bad('--visitors: at most 62,500');
for (const d of DELIVERIES) if (d !== 'webhook' && d !== 'email') bad(`unknown delivery ${d}`);

/** The design's target for one form: its rate limit, so its window has that many shards. */
const FORM_RATE_PER_MINUTE = 60_000;
/** The stack counts as idle once its DynamoDB client has been quiet this long. */
const QUIET_MS = 5_000;
const GIVE_UP_QUIET_MS = 60_000;
const DRAIN_MAX_MS = 20 * 60_000;
const POST_TIMEOUT_MS = 60_000;
const WATCHDOG_MS = 120_000 + POSTS * 2_000 + DRAIN_MAX_MS;
const watchdog = setTimeout(() => {
  process.stderr.write(`bench:partitions did not finish in ${WATCHDOG_MS} ms; giving up\n`);
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const WRITE_OPS = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems'];

process.env.SUBMIT_RATE_PER_FORM_PER_MINUTE = String(FORM_RATE_PER_MINUTE);
// The workers' metric lines (EMF on stdout) would bury the figures; they touch no table.
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
process.env.PRO_MONTHLY_SUBMISSIONS = '100000000';

/** Visitor `n`'s own loopback address: 127.2.x.y, x and y in 1…250. */
const visitorAddress = (n: number) => `127.2.${1 + Math.floor(n / 250)}.${1 + (n % 250)}`;

/** One JSON post from `localAddress`; the answer's status, 0 when none came. */
function postFrom(url: string, localAddress: string, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        localAddress,
        timeout: POST_TIMEOUT_MS,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

async function untilQuiet(recording: Recording, done: () => boolean, maxMs: number) {
  const started = performance.now();
  let reportedAt = started;
  while (performance.now() - started < maxMs) {
    const now = performance.now();
    const quietFor = recording.inFlight === 0 ? now - recording.lastAnswerAt : 0;
    if (quietFor >= QUIET_MS && done()) return true;
    // Nothing moves and what was awaited has not come: it will not.
    if (quietFor >= GIVE_UP_QUIET_MS) return false;
    if (now - reportedAt >= 10_000) {
      reportedAt = now;
      process.stderr.write(
        `  … ${recording.requests} DynamoDB requests so far, ${recording.inFlight} in flight, last: ${recording.lastCall}\n`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

await withBenchStack(async ({ stack, api }) => {
  const { dynamodb } = await import('#store/client.ts');
  const { workers } = await import('#workers');
  const workerNames = new Set(workers.map((w) => w.name));
  const { info } = stack;
  const recording = recordDynamoDb(dynamodb, info.tableName);
  const stream = await openTableStream({
    endpoint: info.endpoints.dynamodb,
    region: info.region,
    tableName: info.tableName,
  });

  // --- the form -------------------------------------------------------------------------------
  let receiver: WebhookReceiver | undefined;
  if (DELIVERIES.has('webhook')) {
    const certificate = await loopbackCertificate();
    trustCertificate(certificate.cert);
    receiver = await startWebhookReceiver(certificate);
  }
  const created = await api('POST', '/v1/forms', { name: 'Partitions bench', type: 'contact' });
  if (created.status !== 201) throw new Error(`form create answered ${created.status}`);
  const form = created.body as { id: string; key: string };
  const patched = await api('PATCH', `/v1/forms/${form.id}`, {
    notifyEnabled: DELIVERIES.has('email'),
    ...(UNIQUE ? { unique: { field: 'email' } } : {}),
  });
  if (patched.status !== 200) throw new Error(`PATCH form answered ${patched.status}`);
  if (receiver) {
    const hooked = await api('PUT', `/v1/forms/${form.id}/webhook`, { url: receiver.url });
    if (hooked.status !== 201) throw new Error(`PUT webhook answered ${hooked.status}`);
  }
  await untilQuiet(recording, () => true, 60_000);

  // --- the posts ------------------------------------------------------------------------------
  const runStart = performance.now();
  recording.local.clear();
  const posts: Post[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < POSTS) {
        const n = next++;
        const body = JSON.stringify({
          name: `Visitor ${n}`,
          email: `visitor${n}@example.com`,
          message: `Partitions bench message number ${n}, long enough to look like a real one.`,
        });
        const sentAt = Date.now();
        const status = await postFrom(
          `${info.baseUrl}/s/${form.key}`,
          visitorAddress(n % VISITORS),
          body,
        );
        posts.push({ at: (sentAt + Date.now()) / 2, stored: status === 200 });
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const postsEnd = performance.now();
  const stored = posts.filter((p) => p.stored).length;
  process.stderr.write(
    `${stored} of ${POSTS} posts stored in ${((postsEnd - runStart) / 1000).toFixed(1)} s; waiting for the workers…\n`,
  );

  // --- the workers ----------------------------------------------------------------------------
  const drained = await untilQuiet(
    recording,
    () => !receiver || receiver.received.length >= stored,
    DRAIN_MAX_MS,
  );
  const drainEnd = performance.now();
  const inbox = DELIVERIES.has('email')
    ? ((await (await fetch(new URL('/store', info.mailUrl))).json()) as { emails: unknown[] })
        .emails.length
    : 0;
  const changes = await stream.readOn();
  await receiver?.close();

  // --- the figures ----------------------------------------------------------------------------
  const { priced, unrecordedChanges } = pairAndPrice(recording.writes, changes);
  const inRun = priced.filter((p) => p.write.sentAt >= runStart);
  const loads = loadsOf(
    inRun,
    recording.reads.filter((r) => r.at >= runStart),
  );
  const names = {
    [form.id]: '<form>',
    [info.teams.pro]: '<team>',
    [form.key.toLowerCase()]: '<key>',
  };
  const pathOf = (caller: string) =>
    workerNames.has(caller)
      ? `async: ${caller}`
      : caller === 'outside'
        ? 'bench'
        : `submit: ${caller}`;
  const report = figures({ loads, posts, stored, names, pathOf });
  const localReadUnits = [...recording.local]
    .filter(([key]) => !WRITE_OPS.some((op) => key.endsWith(` ${op}`)))
    .reduce((total, [, u]) => total + u.total, 0);
  const localUnits = [...recording.local]
    .filter(([key]) => WRITE_OPS.some((op) => key.endsWith(` ${op}`)))
    .reduce(
      (sum, [, u]) => {
        sum.total += u.total;
        sum.table += u.table;
        for (const [index, n] of Object.entries(u.indexes))
          sum.indexes[index] = (sum.indexes[index] ?? 0) + n;
        return sum;
      },
      { total: 0, table: 0, indexes: {} as Record<string, number> },
    );
  const run = {
    posts: POSTS,
    stored,
    answers: Object.fromEntries(statuses),
    concurrency: CONCURRENCY,
    visitors: VISITORS,
    deliveries: [...DELIVERIES],
    postsPerSecondLocally: Number((stored / ((postsEnd - runStart) / 1000)).toFixed(1)),
    drainSeconds: Number(((drainEnd - postsEnd) / 1000).toFixed(1)),
    drained,
    webhooksReceived: receiver?.received.length ?? 0,
    emailsInInbox: inbox,
    streamRecords: changes.length,
    streamRecordsNoRecordedWriteExplains: unrecordedChanges.length,
    writesByBasis: loads.bases,
    recorderFaults: recording.faults.length,
    /** Item writes not priced from their own images, by kind, function, action and why. */
    notFromImages: Object.fromEntries(
      Object.entries(
        Object.groupBy(
          inRun.filter((p) => p.basis !== 'images'),
          (p) =>
            `${p.kind} ${p.write.caller} ${p.write.action}: ${p.basis}${p.write.error ? ` (${p.write.error})` : ''}`,
        ),
      ).map(([what, list]) => [what, list?.length ?? 0]),
    ),
  };
  for (const fault of recording.faults.slice(0, 5))
    process.stderr.write(`recorder fault: ${fault}\n`);
  printReport(run, report, localUnits, stored);
  process.stdout.write(
    `Reads: ${round(loads.reads.reduce((t, r) => t + r.units, 0) / stored)} RCU a post by the keys above ` +
      `(GetItem and Query as DynamoDB Local reports them, BatchGetItem computed per item; Local's own total ${round(localReadUnits / stored)}).\n\n`,
  );
  process.stdout.write(
    `${JSON.stringify({ bench: 'partitions', date: new Date().toISOString(), run, ...report.json, localWriteUnitsPerPost: round(localUnits.total / stored), localReadUnitsPerPost: round(localReadUnits / stored) })}\n`,
  );
});

interface Figures {
  lines: string[];
  json: Record<string, unknown>;
}

function figures(input: {
  loads: Loads;
  posts: Post[];
  stored: number;
  names: Record<string, string>;
  pathOf: (caller: string) => string;
}): Figures {
  const { loads, posts, stored, names, pathOf } = input;
  const lines: string[] = [];
  const indexNames = [...new Set(loads.partitions.map((p) => p.on))].filter((on) => on !== 'table');
  const per = (units: number) => round(units / stored);
  const callersOf = (callers: Map<string, number>) =>
    [...new Set([...callers.keys()].map(pathOf))].join(', ');

  // Per kind of item.
  const kinds = [...loads.kinds].sort(
    (a, b) => b.tableUnits + sum(b.indexUnits) - (a.tableUnits + sum(a.indexUnits)),
  );
  const totalTable = kinds.reduce((s, k) => s + k.tableUnits, 0);
  const totalIndex = kinds.reduce((s, k) => s + sum(k.indexUnits), 0);
  const submitOnly = (k: (typeof kinds)[number]) =>
    [...k.callers.keys()].every((c) => pathOf(c).startsWith('submit'));
  lines.push(
    `Write units a post (computed from the stream's images; ${stored} stored posts)`,
    table(
      ['kind of item', 'writes/post', 'table WCU/post', 'index WCU/post', 'sent by'],
      kinds.map((k) => [
        k.kind,
        String(per(k.writes)),
        String(per(k.tableUnits)),
        Object.entries(k.indexUnits)
          .map(([i, u]) => `${i} ${per(u)}`)
          .join(', ') || '0',
        callersOf(k.callers),
      ]),
    ),
    `Total: ${per(totalTable + totalIndex)} WCU a post (table ${per(totalTable)}, indexes ${per(totalIndex)}); ` +
      `on the submit path ${per(kinds.filter(submitOnly).reduce((s, k) => s + k.tableUnits + sum(k.indexUnits), 0))}, ` +
      `async ${per(kinds.filter((k) => !submitOnly(k)).reduce((s, k) => s + k.tableUnits + sum(k.indexUnits), 0))}.`,
    '',
  );

  // Hottest keys.
  const rows: string[][] = [];
  const ceilings: Record<string, { key: string; unitsPerPost: number; postsPerSecond: number }> =
    {};
  const hot = (label: string, loadsOn: KeyLoad[], on: string, limit: number, count = 1) => {
    const found = hottestKeys(loadsOn, posts, on, count);
    if (found.length === 0) rows.push([label, '(none written)', '', '', '']);
    for (const [rank, { load, perPost }] of found.entries()) {
      const cap = Math.floor(limit / perPost);
      if (rank === 0) {
        ceilings[label] = {
          key: shapeOf(load.key, names),
          unitsPerPost: round(perPost),
          postsPerSecond: cap,
        };
      }
      const share = (units: number) => round((units / load.units) * perPost);
      const breakdown = [...load.byKind]
        .sort((a, b) => b[1] - a[1])
        .map(([kind, units]) => `${kind} ${share(units)}`)
        .join(', ');
      rows.push([label, shapeOf(load.key, names), String(round(perPost)), String(cap), breakdown]);
    }
  };
  hot('table', loads.partitions, 'table', PARTITION_WCU, 5);
  for (const index of indexNames) hot(`index ${index}`, loads.partitions, index, PARTITION_WCU);
  hot('one item', loads.items, 'table', PARTITION_WCU, 3);
  hot('reads, table', loads.reads, 'table', PARTITION_RCU, 3);
  for (const index of [...new Set(loads.reads.map((r) => r.on))].filter((on) => on !== 'table')) {
    hot(`reads, index ${index}`, loads.reads, index, PARTITION_RCU);
  }
  lines.push(
    `Hottest keys: units a post on the key (over the posts of its time window, a rate window's minute or a summary bucket's hour; every post for the others) and the posts a second it allows (${PARTITION_WCU} WCU, ${PARTITION_RCU} RCU a partition a second)`,
    table(['on', 'key', 'units/post', 'posts/s', 'of which'], rows),
    '',
  );

  // The hottest table key, submit path only (what the async writers add is theirs to move).
  const hotTable = hottest(loads.partitions, posts, 'table');
  let submitPathCap: number | undefined;
  if (hotTable) {
    const submitUnits = [...hotTable.load.byCaller]
      .filter(([caller]) => pathOf(caller).startsWith('submit'))
      .reduce((s, [, u]) => s + u, 0);
    const perPost = (submitUnits / hotTable.load.units) * hotTable.perPost;
    submitPathCap = perPost > 0 ? Math.floor(PARTITION_WCU / perPost) : undefined;
    lines.push(
      `On ${shapeOf(hotTable.load.key, names)}: submit path ${round(perPost)} WCU a post, async ${round(hotTable.perPost - perPost)} ` +
        `(${[...hotTable.load.byCaller].map(([c, u]) => `${pathOf(c)} ${round((u / hotTable.load.units) * hotTable.perPost)}`).join(', ')}).`,
    );
  }
  const limiting = Object.entries(ceilings).sort(
    (a, b) => a[1].postsPerSecond - b[1].postsPerSecond,
  )[0];
  if (limiting) {
    lines.push(
      `One form's ceiling today: ${limiting[1].postsPerSecond} posts a second (${limiting[0]}, ${limiting[1].key}, ${limiting[1].unitsPerPost} units a post)` +
        (submitPathCap
          ? `; the submit path's writes alone on the hottest table key: ${submitPathCap}.`
          : '.'),
    );
  }
  return {
    lines,
    json: {
      writeUnitsPerPost: {
        total: per(totalTable + totalIndex),
        table: per(totalTable),
        indexes: per(totalIndex),
        byKind: Object.fromEntries(
          kinds.map((k) => [
            k.kind,
            {
              writes: per(k.writes),
              table: per(k.tableUnits),
              indexes: Object.fromEntries(
                Object.entries(k.indexUnits).map(([i, u]) => [i, per(u)]),
              ),
              sentBy: callersOf(k.callers),
            },
          ]),
        ),
      },
      hottest: ceilings,
      ceilingPostsPerSecond: limiting?.[1].postsPerSecond,
      submitPathCeilingPostsPerSecond: submitPathCap,
    },
  };
}

function printReport(
  run: Record<string, unknown>,
  report: Figures,
  local: { total: number; table: number; indexes: Record<string, number> },
  stored: number,
) {
  const out = [
    '',
    `bench:partitions — one form, ${run.posts} posts, ${run.concurrency} at a time, from ${run.visitors} visitor addresses; deliveries: ${(run.deliveries as string[]).join(', ') || 'none'}${UNIQUE ? '; unique: email' : ''}`,
    `Stored ${run.stored} (answers ${JSON.stringify(run.answers)}), ${run.postsPerSecondLocally} posts/s locally; workers done ${run.drainSeconds} s after the last post` +
      `${run.drained ? '' : ' (NOT drained: figures partial)'}; webhooks received ${run.webhooksReceived}, emails in the inbox ${run.emailsInInbox}.`,
    `Stream: ${run.streamRecords} records, ${run.streamRecordsNoRecordedWriteExplains} that no recorded write explains. Item writes priced: ${JSON.stringify(run.writesByBasis)}.`,
    `Not priced from their own images: ${JSON.stringify(run.notFromImages)}.`,
    `DynamoDB Local's own ConsumedCapacity (its accounting: transactions by total size, index writes doubled in them): ` +
      `${round(local.total / stored)} WCU a post, of which table ${round(local.table / stored)}, ` +
      `indexes ${Object.entries(local.indexes)
        .map(([i, u]) => `${i} ${round(u / stored)}`)
        .join(', ')}.`,
    '',
    ...report.lines,
    '',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

function sum(record: Record<string, number>): number {
  return Object.values(record).reduce((s, n) => s + n, 0);
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
