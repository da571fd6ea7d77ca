/**
 * `npm run bench:groups [-- --runs N]`: what a group of routes saves over a
 * function per route (docs/architecture.md#route-groups), measured both ways
 * for each group of the route table. For each route after the group's first:
 *
 * - **own function**: the route's handler built alone, as it would ship;
 *   in a fresh process, its import and its first request (no caller: a 401,
 *   no AWS call), i.e. the module part of a cold start;
 * - **in its group**: the group's function built as it ships; in a fresh
 *   process the first route's request is answered first (the warm
 *   container), then the timed part: this route's first request, which
 *   loads its chunk.
 *
 * Lambda's own part of a cold start (a new execution environment, the code
 * downloaded, the runtime started: typically 100–400 ms for Node.js, per
 * AWS) comes on top of the first figure only, and cannot be measured here.
 * Medians of N processes each, taken in turns. Traffic: none (the first
 * request of a management route without a caller answers 401 before any
 * AWS call).
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { routeFunctions } from '#routes';
import { bundleOf } from './bundle.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' } } });
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  process.stderr.write('--runs must be a whole number >= 1\n');
  process.exit(2);
}

/** A request of `route` with no caller, as API Gateway hands it to a function. */
const eventOf = (route: { method: string; path: string }) => ({
  httpMethod: route.method,
  resource: route.path,
  path: route.path.replace(/\{[^}]+\}/g, 'x'),
  headers: {},
  multiValueHeaders: {},
  queryStringParameters: null,
  multiValueQueryStringParameters: null,
  pathParameters: Object.fromEntries(
    [...route.path.matchAll(/\{([^}+]+)\+?\}/g)].map((m) => [m[1], 'x']),
  ),
  requestContext: { requestId: 'bench', identity: { sourceIp: '127.0.0.1' } },
  body: null,
  isBase64Encoded: false,
});

/** Runs `warm` then times `timed` (each a request) in a fresh process importing `file`; ms. */
function firstRequest(file: string, timed: unknown, warm?: unknown): number {
  const script = `
    const t0 = performance.now();
    const { handler } = await import(${JSON.stringify(file)});
    const context = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 10000 };
    let start = t0;
    if (${JSON.stringify(warm ?? null)} !== null) {
      await handler(${JSON.stringify(warm ?? null)}, context);
      start = performance.now();
    }
    const answer = await handler(${JSON.stringify(timed)}, context);
    console.log(JSON.stringify({ ms: performance.now() - start, status: answer.statusCode }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: {
      ...process.env,
      TABLE_NAME: 'bench',
      UPLOADS_BUCKET: 'bench',
      BASE_URL: 'https://bench.invalid',
      LOG_LEVEL: 'error',
    },
  });
  const { ms, status } = JSON.parse(out.toString().trim().split('\n').at(-1)!);
  if (status !== 401) throw new Error(`expected a 401 without a caller, got ${status}`);
  return ms;
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

const rows: Array<{ group: string; route: string; own: number; inGroup: number }> = [];
for (const fn of routeFunctions().filter((each) => each.routes.length > 1)) {
  const managed = fn.routes.filter((route) => route.auth === 'apiKey');
  if (managed.length < 2) continue; // public groups answer without a caller: no 401 to stop at
  const group = await bundleOf(fn.handler);
  const [first, ...others] = managed;
  for (const route of others) {
    const own = await bundleOf(route.handler);
    const owns: number[] = [];
    const inGroups: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      owns.push(firstRequest(own.file, eventOf(route)));
      inGroups.push(firstRequest(group.file, eventOf(route), eventOf(first!)));
    }
    rows.push({ group: fn.name, route: route.name, own: median(owns), inGroup: median(inGroups) });
  }
}

const width = Math.max(...rows.map((row) => `${row.group}/${row.route}`.length));
process.stdout.write(
  `${'route'.padEnd(width)}  own function (import + 1st request)  in its group (1st request)\n`,
);
for (const row of rows) {
  process.stdout.write(
    `${`${row.group}/${row.route}`.padEnd(width)}  ${row.own.toFixed(1).padStart(8)} ms${' '.repeat(26)}${row.inGroup.toFixed(1).padStart(7)} ms\n`,
  );
}
const owns = rows.map((row) => row.own);
const inGroups = rows.map((row) => row.inGroup);
process.stdout.write(
  `median over ${rows.length} routes: own function ${median(owns).toFixed(1)} ms, in its group ${median(inGroups).toFixed(1)} ms (${RUNS} processes each, in turns)\n`,
);
process.stdout.write(`${JSON.stringify({ runs: RUNS, rows })}\n`);
