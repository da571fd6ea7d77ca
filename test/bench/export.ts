/**
 * `npm run bench:export [-- --rows N]`: the CSV export on the local stack.
 * Seeds N submissions straight into the table (test/support/seed-submissions.ts,
 * not over HTTP), exports them over real HTTP and prints rows per second,
 * the time to the first byte (the BOM, sent before pass 1) and to the first
 * data row (after pass 1 and the header), the total time, and how far the
 * resident memory of this process, which runs the gateway and the handler,
 * rose above its level before the export. The goal is at most 64 MB.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { seedSubmissions } from '../support/seed-submissions.ts';
import { withBenchStack } from './bench-stack.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    'seed-parallel': { type: 'string', default: '8' },
  },
});
const ROWS = Number(values.rows);
const GOAL_MB = 64;
const MB = 2 ** 20;

await withBenchStack(async ({ stack, newForm }) => {
  const { baseUrl, apiKeys } = stack.info;
  const headers = { authorization: `Bearer ${apiKeys.pro}` };
  const form = await newForm('Bench export');

  const seedStarted = performance.now();
  await seedSubmissions({
    formId: form.id,
    teamId: form.teamId,
    count: ROWS,
    parallel: Number(values['seed-parallel']),
  });
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  // The stream poller of this process reads every insert: let it finish first.
  await quiet();
  // Loads the handler module (as a warm Lambda container has), so the
  // measure below is the export's own memory, not code being loaded.
  const warmUp = await fetch(`${baseUrl}/v1/forms/${form.id}/export.csv?filter=spam`, {
    headers,
  });
  await warmUp.arrayBuffer();
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

  const started = performance.now();
  const response = await fetch(`${baseUrl}/v1/forms/${form.id}/export.csv`, { headers });
  if (response.status !== 200) throw new Error(`export answered ${response.status}`);
  let firstByteMs: number | undefined;
  let firstRowMs: number | undefined;
  let bytes = 0;
  let lineEnds = 0;
  for await (const chunk of response.body!) {
    firstByteMs ??= performance.now() - started;
    bytes += chunk.length;
    // Seeded answers hold no line breaks: every LF ends a record.
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lineEnds += 1;
    if (firstRowMs === undefined && lineEnds >= 2) firstRowMs = performance.now() - started;
  }
  const totalMs = performance.now() - started;
  clearInterval(sampler);
  const rows = lineEnds - 1;
  if (rows !== ROWS) throw new Error(`exported ${rows} rows, seeded ${ROWS}`);
  const highWater = peakResetWorked ? vmHwmBytes() : undefined;
  const peakGrowth = Math.max(sampledPeak, highWater ?? 0) - baseline.rss;

  const report = {
    rows: ROWS,
    seed: {
      seconds: Number(seedSeconds.toFixed(1)),
      rowsPerSecond: Math.round(ROWS / seedSeconds),
    },
    export: {
      rowsPerSecond: Math.round(ROWS / (totalMs / 1000)),
      pass2RowsPerSecond: Math.round(ROWS / ((totalMs - (firstRowMs ?? 0)) / 1000)),
      firstByteMs: Math.round(firstByteMs ?? 0),
      firstRowMs: Math.round(firstRowMs ?? 0),
      totalSeconds: Number((totalMs / 1000).toFixed(1)),
      megabytes: Number((bytes / MB).toFixed(1)),
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
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (!report.memory.withinGoal) process.exitCode = 1;
});

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
