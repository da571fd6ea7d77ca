/**
 * `npm run bench:export [-- --rows N] [--two-passes] [--person]`: the CSV
 * export on the local stack, or with `--person` the export by email
 * (docs/privacy.md#export-by-email) of one person holding all N submissions
 * (their email index entries seeded too; "rows" are then the document's
 * submissions, and the first row the first submission). Seeds N submissions straight into the table
 * (test/support/seed-submissions.ts, not over HTTP; their names go into the
 * form's column catalogue), exports them over real HTTP and prints rows per
 * second, the time to the first byte (the BOM) and to the first data row
 * (after the header), the total time, the read units the handler's DynamoDB
 * calls consumed (per row), and how far the resident memory of this
 * process, which runs the gateway and the handler, rose above its level
 * before the export. The goal is at most 64 MB. With `--two-passes`, the
 * catalogue is then removed and the folder exported again, as a form stored
 * before catalogues is (pass 1 for the names, pass 2 for the rows).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { meterDynamoDb, routeCallsOnly, untilIdle } from '#test/support/dynamodb-meter.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { withBenchStack } from './bench-stack.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    'seed-parallel': { type: 'string', default: '8' },
    // Also export the folder as a form without a column catalogue (two walks).
    'two-passes': { type: 'boolean', default: false },
    // Export by email: one person's JSON document instead of the folder's CSV.
    person: { type: 'boolean', default: false },
  },
});
const ROWS = Number(values.rows);
const PERSON = values.person ? 'bench-person@example.com' : undefined;
const GOAL_MB = 64;
const MB = 2 ** 20;

await withBenchStack(
  async ({ stack, newForm }) => {
    const { baseUrl, apiKeys } = stack.info;
    const headers = { authorization: `Bearer ${apiKeys.pro}` };
    const form = await newForm('Bench export');

    const seedStarted = performance.now();
    const { ids } = await seedSubmissions({
      formId: form.id,
      teamId: form.teamId,
      count: ROWS,
      parallel: Number(values['seed-parallel']),
      ...(PERSON
        ? { data: (i: number) => ({ name: `Visitor ${i}`, email: PERSON, message: `Seeded ${i}` }) }
        : {}),
    });
    if (PERSON) await indexPerson(form, ids, PERSON);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const path = PERSON
      ? `/v1/privacy/submissions?email=${encodeURIComponent(PERSON)}`
      : `/v1/forms/${form.id}/export.csv`;
    // The stream poller of this process reads every insert: let it finish first.
    await quiet();
    // Loads the handler module (as a warm Lambda container has), so the
    // measure below is the export's own memory, not code being loaded.
    const warmUp = await fetch(
      PERSON
        ? `${baseUrl}/v1/privacy/submissions?email=nobody%40example.com`
        : `${baseUrl}/v1/forms/${form.id}/export.csv?filter=spam`,
      { headers },
    );
    await warmUp.arrayBuffer();

    const { dynamodb, documents } = await import('#store/client.ts');
    const { meter, reset } = meterDynamoDb(dynamodb, routeCallsOnly);
    // The seed's stream records reach the fan-out after it returns: let them pass first.
    await untilIdle(meter);

    /** One export over real HTTP: times, memory and the handler's DynamoDB reads. */
    const measure = async () => {
      globalThis.gc?.();
      const baseline = process.memoryUsage();
      const peakResetWorked = resetPeakRss();
      let sampledPeak = baseline.rss;
      let heapPeak = baseline.heapUsed;
      const sampler = setInterval(() => {
        const now = process.memoryUsage();
        sampledPeak = Math.max(sampledPeak, now.rss);
        heapPeak = Math.max(heapPeak, now.heapUsed);
      }, 10);

      reset();
      const started = performance.now();
      const response = await fetch(`${baseUrl}${path}`, { headers });
      if (response.status !== 200) throw new Error(`export answered ${response.status}`);
      let firstByteMs: number | undefined;
      let firstRowMs: number | undefined;
      let bytes = 0;
      const rowCounter = PERSON ? jsonEntries() : csvRecords();
      for await (const chunk of response.body!) {
        firstByteMs ??= performance.now() - started;
        bytes += chunk.length;
        rowCounter.take(chunk);
        if (firstRowMs === undefined && rowCounter.rows() >= 1) {
          firstRowMs = performance.now() - started;
        }
      }
      const totalMs = performance.now() - started;
      clearInterval(sampler);
      const rows = rowCounter.rows();
      if (rows !== ROWS) throw new Error(`exported ${rows} rows, seeded ${ROWS}`);
      if (!rowCounter.whole()) throw new Error('the document is not whole');
      const highWater = peakResetWorked ? vmHwmBytes() : undefined;
      const peakGrowth = Math.max(sampledPeak, highWater ?? 0) - baseline.rss;
      const calls: Record<string, number> = {};
      for (const call of meter.calls) calls[call] = (calls[call] ?? 0) + 1;
      return {
        export: {
          rowsPerSecond: Math.round(ROWS / (totalMs / 1000)),
          rowsAfterFirstRowPerSecond: Math.round(ROWS / ((totalMs - (firstRowMs ?? 0)) / 1000)),
          firstByteMs: Math.round(firstByteMs ?? 0),
          firstRowMs: Math.round(firstRowMs ?? 0),
          totalSeconds: Number((totalMs / 1000).toFixed(1)),
          megabytes: Number((bytes / MB).toFixed(1)),
        },
        // The handler's own calls (the key check and the form read included).
        reads: {
          calls,
          readUnits: Number(meter.readCapacity.toFixed(1)),
          readUnitsPerRow: Number((meter.readCapacity / ROWS).toFixed(3)),
        },
        memory: {
          baselineRssMb: Number((baseline.rss / MB).toFixed(1)),
          peakRssGrowthMb: Number((peakGrowth / MB).toFixed(1)),
          // RSS stays high once pages were touched (seeding touches many), so
          // the JS heap's own peak is shown too.
          peakHeapUsedGrowthMb: Number(((heapPeak - baseline.heapUsed) / MB).toFixed(1)),
          measuredBy: peakResetWorked ? 'VmHWM after reset, and 10 ms samples' : '10 ms samples',
          goalMb: GOAL_MB,
          withinGoal: peakGrowth <= GOAL_MB * MB,
        },
      };
    };

    const onePass = await measure();
    let twoPasses: Awaited<ReturnType<typeof measure>> | undefined;
    if (values['two-passes']) {
      // As a form stored before column catalogues: the export falls back to two walks.
      const { formColumnsKey } = await import('#store/keys.ts');
      const { config } = await import('#config');
      await documents.send(
        new DeleteCommand({ TableName: config.tableName, Key: formColumnsKey(form.id) }),
      );
      twoPasses = await measure();
    }

    const report = {
      export: PERSON ? 'by email (JSON)' : 'CSV',
      rows: ROWS,
      seed: {
        seconds: Number(seedSeconds.toFixed(1)),
        rowsPerSecond: Math.round(ROWS / seedSeconds),
      },
      onePass,
      ...(twoPasses ? { twoPassesWithoutCatalogue: twoPasses } : {}),
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    if (!onePass.memory.withinGoal || twoPasses?.memory.withinGoal === false) process.exitCode = 1;
  },
  // The export by email reads no item the stream keeps: without it, the seed leaves nothing
  // for the workers to catch up with (the CSV export keeps it, as before).
  { tableStream: PERSON === undefined },
);

/** Index entries naming the seeded submissions, as the storing transaction writes them. */
async function indexPerson(form: { id: string; teamId: string }, ids: string[], email: string) {
  const { putEmailIndexEntries } = await import('#store/email-index.ts');
  const { emailHash } = await import('#domain/email-index.ts');
  const { config } = await import('#config');
  const hash = emailHash(config.keyedHashSecret, form.teamId, email);
  const entries = ids.map((submissionId) => ({ formId: form.id, submissionId, hash }));
  const slices = Array.from({ length: Math.ceil(entries.length / 1000) }, (_, i) =>
    entries.slice(i * 1000, (i + 1) * 1000),
  );
  let next = 0;
  const writer = async () => {
    while (next < slices.length) await putEmailIndexEntries(form.teamId, slices[next++]!);
  };
  await Promise.all(Array.from({ length: 8 }, writer));
}

/** Counts CSV records as the bytes pass: seeded answers hold no line breaks, so every LF ends one. */
function csvRecords() {
  let lineEnds = 0;
  return {
    take(chunk: Uint8Array) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lineEnds += 1;
    },
    // The header is the first record.
    rows: () => Math.max(0, lineEnds - 1),
    whole: () => true,
  };
}

/** Counts the submissions of an export by email as the bytes pass, holding only a short tail. */
function jsonEntries() {
  const mark = Buffer.from('"formName":');
  let tail = Buffer.alloc(0);
  let count = 0;
  return {
    take(chunk: Uint8Array) {
      const window = Buffer.concat([tail, chunk]);
      for (let i = window.indexOf(mark); i !== -1; i = window.indexOf(mark, i + 1)) count += 1;
      // Keep what could start a mark split across chunks, and no whole mark already counted.
      tail = window.subarray(Math.max(0, window.length - (mark.length - 1)));
    },
    rows: () => count,
    // A cut document lacks its closing (docs/privacy.md#when-an-export-fails).
    whole: () => tail.toString().endsWith(']}'),
  };
}

/** Waits until this process uses under 5 % of a core for a second (at most a minute). */
async function quiet(): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1e6 < 0.05) return;
  }
}

/** Linux: writing 5 to clear_refs resets VmHWM to the current RSS. */
function resetPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return vmHwmBytes() !== undefined;
  } catch {
    return false;
  }
}

function vmHwmBytes(): number | undefined {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}
