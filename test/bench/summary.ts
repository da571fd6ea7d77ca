/**
 * `npm run bench:summary [-- --submissions N --signups M --runs R]`: a
 * contact form holding N submissions received over the last 366 days and a
 * waitlist form with M signups (seeded through the store; the table stream
 * and the rollup worker count them as they would posts), then the summary
 * route over real HTTP for the whole year. Prints the rollup's writes and
 * write units per stored submission (issue 26's goal: at most 2), and per
 * summary read its sequential DynamoDB round trips (auth included), calls,
 * read units and median latency (goal: at most 3 round trips and 400 read
 * units for a year of 100,000 submissions).
 */
import { parseArgs } from 'node:util';
import { meterDynamoDb, routeCallsOnly, untilIdle } from '#test/support/dynamodb-meter.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { random } from '#test/support/seeded-random.ts';
import { median, withBenchStack } from './bench-stack.ts';

const { values } = parseArgs({
  options: {
    submissions: { type: 'string', default: '100000' },
    signups: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '5' },
  },
});
const SUBMISSIONS = Number(values.submissions);
const SIGNUPS = Number(values.signups);
const RUNS = Number(values.runs);
const DAY = 86_400_000;

/** Write units of the rollup's own items (hour buckets, months, address marks), by their key. */
function meterRollupWrites(client: import('@aws-sdk/client-dynamodb').DynamoDBClient) {
  const written = { calls: 0, units: 0 };
  client.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as {
        Key?: { sk?: unknown };
        Item?: { sk?: unknown };
        ReturnConsumedCapacity?: string;
      };
      const sk = input.Key?.sk ?? input.Item?.sk;
      // Marshalled ({ S }) or not, depending on where the document client's middleware ran.
      const key = typeof sk === 'object' && sk !== null && 'S' in sk ? sk.S : sk;
      const rollup = typeof key === 'string' && /^(STAT|SEEN)#/.test(key);
      if (!rollup) return next(args);
      input.ReturnConsumedCapacity = 'TOTAL';
      try {
        const result = await next(args);
        const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } })
          .ConsumedCapacity;
        written.calls += 1;
        written.units += consumed?.CapacityUnits ?? 0;
        return result;
      } catch (error) {
        // A record taken already (its condition failed) still costs its unit.
        written.calls += 1;
        written.units += 1;
        throw error;
      }
    },
    { step: 'initialize', name: 'rollupWriteMeter', override: true },
  );
  const take = () => {
    const taken = { ...written };
    Object.assign(written, { calls: 0, units: 0 });
    return taken;
  };
  return take;
}

await withBenchStack(async ({ api, newForm }) => {
  const rng = random(26);
  const now = Date.now();
  const today = new Date(now).toISOString().slice(0, 10);
  const yearBefore = new Date(now - 365 * DAY).toISOString().slice(0, 10);
  const { dynamodb } = await import('#store/client.ts');
  const { meter, reset } = meterDynamoDb(dynamodb, routeCallsOnly);
  const rollupWrites = meterRollupWrites(dynamodb);
  const metaOf = () => ({
    userAgent: 'Mozilla/5.0',
    referrer: rng.pick([
      '',
      'https://example.com/',
      'https://blog.example.org/post',
      'https://t.co/x',
    ]),
    country: rng.pick(['FR', 'DE', 'US', 'JP', 'BR', 'IN', 'GB', 'CA', 'ES', 'IT', 'NL', 'SE']),
    deviceClass: rng.pick(['mobile', 'desktop', 'tablet'] as const),
  });
  const yearAgo = (count: number) => {
    const times = Array.from({ length: count }, () => now - 60_000 - rng.int(365 * DAY)).sort();
    return (i: number) => new Date(times[i]!);
  };

  // The local stream's poller rests between empty polls: wait for the count, then for quiet.
  const untilCounted = async (formId: string, count: number) => {
    for (const started = Date.now(); Date.now() - started < 1_800_000; ) {
      const all = await api('GET', `/v1/forms/${formId}/summary?from=${yearBefore}&to=${today}`);
      if (all.status !== 200) throw new Error(`summary answered ${all.status}`);
      if ((all.body as { totals: { stored: number } }).totals.stored >= count) break;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    await untilIdle(meter);
  };

  const contact = await newForm('Summary bench');
  let started = performance.now();
  await seedSubmissions({
    formId: contact.id,
    teamId: contact.teamId,
    count: SUBMISSIONS,
    receivedAt: yearAgo(SUBMISSIONS),
    meta: metaOf,
  });
  await untilCounted(contact.id, SUBMISSIONS);
  const contactSeconds = (performance.now() - started) / 1000;
  const contactWrites = rollupWrites();

  const waitlist = await newForm('Summary bench waitlist');
  const changed = await api('PATCH', `/v1/forms/${waitlist.id}`, {
    type: 'waitlist',
    fields: [
      { id: 'email', type: 'email', label: 'Email', required: true },
      { id: 'name', type: 'text', label: 'Name', required: false },
    ],
  });
  if (changed.status !== 200) throw new Error(`PATCH type answered ${changed.status}`);
  started = performance.now();
  await seedSubmissions({
    formId: waitlist.id,
    teamId: waitlist.teamId,
    count: SIGNUPS,
    receivedAt: yearAgo(SIGNUPS),
    // One address in ten signs up twice.
    data: (i) => ({ email: `person${i % Math.ceil(SIGNUPS * 0.9)}@example.com`, name: 'Ada' }),
    meta: metaOf,
    waitlist: true,
  });
  await untilCounted(waitlist.id, SIGNUPS);
  const waitlistSeconds = (performance.now() - started) / 1000;
  const waitlistWrites = rollupWrites();

  const reads: Record<string, unknown> = {};
  for (const [name, form] of Object.entries({ contact, waitlist })) {
    const latencies: number[] = [];
    let last: Record<string, unknown> = {};
    for (let run = 0; run < RUNS; run++) {
      reset();
      const response = await api(
        'GET',
        `/v1/forms/${form.id}/summary?from=${yearBefore}&to=${today}&tz=Europe%2FParis`,
      );
      if (response.status !== 200) throw new Error(`summary answered ${response.status}`);
      latencies.push(response.ms);
      const calls: Record<string, number> = {};
      for (const call of meter.calls) calls[call] = (calls[call] ?? 0) + 1;
      const totals = (response.body as { totals: { stored: number } }).totals;
      last = {
        days: 366,
        stored: totals.stored,
        rounds: meter.rounds,
        calls,
        readUnits: Number(meter.readCapacity.toFixed(1)),
        queryUnits: Number((meter.byCommand.QueryCommand ?? 0).toFixed(1)),
      };
    }
    reads[name] = { ...last, medianMs: Number(median(latencies).toFixed(1)) };
    process.stderr.write(`${name}: ${JSON.stringify(reads[name])}\n`);
  }
  const perPost = (writes: { calls: number; units: number }, posts: number) => ({
    writes: writes.calls,
    writeUnits: Number(writes.units.toFixed(1)),
    writesPerPost: Number((writes.calls / posts).toFixed(2)),
    writeUnitsPerPost: Number((writes.units / posts).toFixed(2)),
  });
  process.stdout.write(
    `${JSON.stringify(
      {
        submissions: SUBMISSIONS,
        signups: SIGNUPS,
        runs: RUNS,
        rollup: {
          contact: {
            ...perPost(contactWrites, SUBMISSIONS),
            seconds: Number(contactSeconds.toFixed(1)),
          },
          waitlist: {
            ...perPost(waitlistWrites, SIGNUPS),
            seconds: Number(waitlistSeconds.toFixed(1)),
          },
        },
        reads,
      },
      null,
      2,
    )}\n`,
  );
});
