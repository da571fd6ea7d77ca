/**
 * `npm run bench:list [-- --submissions N --runs R]`: a form holding N
 * submissions (seeded through the store, not HTTP), then the list route over
 * real HTTP for page 1, 100 and 400 and `around` an old submission. Prints,
 * per case, the handler's sequential DynamoDB round trips (auth included),
 * its calls, the capacity they consumed and the median latency.
 */
import { parseArgs } from 'node:util';
import { meterDynamoDb, routeCallsOnly, untilIdle } from '#test/support/dynamodb-meter.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { median, withBenchStack } from './bench-stack.ts';

const { values } = parseArgs({
  options: {
    submissions: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '5' },
  },
});
const SUBMISSIONS = Number(values.submissions);
const RUNS = Number(values.runs);

await withBenchStack(async ({ api, newForm }) => {
  const form = await newForm('List bench');
  const seedStarted = performance.now();
  const { ids } = await seedSubmissions({
    formId: form.id,
    teamId: form.teamId,
    count: SUBMISSIONS,
  });
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const { dynamodb } = await import('#store/client.ts');
  const { meter, reset } = meterDynamoDb(dynamodb, routeCallsOnly);
  // The seed's stream records reach the fan-out after it returns: let them pass first.
  await untilIdle(meter);
  // ids are newest first: one near the far end of the inbox.
  const old = ids[Math.floor(ids.length * 0.9)]!;
  const cases: Record<string, string> = {
    'page 1': '?page=1',
    'page 100': '?page=100',
    'page 400': '?page=400',
    'around an old submission': `?around=${old}`,
    'page 1, pageSize 100': '?pageSize=100',
  };
  const results: Record<string, unknown> = {};
  for (const [name, query] of Object.entries(cases)) {
    const latencies: number[] = [];
    let last: { rounds: number; calls: Record<string, number>; capacity: number } | undefined;
    let page: unknown;
    for (let run = 0; run < RUNS; run++) {
      reset();
      const response = await api('GET', `/v1/forms/${form.id}/submissions${query}`);
      if (response.status !== 200) throw new Error(`${name} answered ${response.status}`);
      latencies.push(response.ms);
      page = (response.body as { page: number }).page;
      const calls: Record<string, number> = {};
      for (const call of meter.calls) calls[call] = (calls[call] ?? 0) + 1;
      last = { rounds: meter.rounds, calls, capacity: Number(meter.capacity.toFixed(1)) };
    }
    results[name] = { page, ...last, medianMs: Number(median(latencies).toFixed(1)) };
    process.stderr.write(`${name}: ${JSON.stringify(results[name])}\n`);
  }
  process.stdout.write(
    `${JSON.stringify({ submissions: SUBMISSIONS, seedSeconds: Number(seedSeconds.toFixed(1)), runs: RUNS, results }, null, 2)}\n`,
  );
});
