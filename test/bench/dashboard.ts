/**
 * `npm run bench:dashboard [-- --submissions N --runs R]`: a form of N
 * submissions (seeded through the store), a person signed in, and the
 * dashboard in Chromium over the local stack: the first inbox render after
 * sign-in and page changes (p50 and p95, from the click to the new rows on
 * screen), and the API calls each makes. Also one search call's read units.
 * Prints a table and a JSON line.
 */
import { parseArgs } from 'node:util';
import { startChromium } from '#test/support/chromium.ts';
import { meterDynamoDb, routeCallsOnly } from '#test/support/dynamodb-meter.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { median, sessionCookie, withBenchStack } from './bench-stack.ts';

const { values } = parseArgs({
  options: {
    submissions: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '20' },
  },
});
const SUBMISSIONS = Number(values.submissions);
const RUNS = Number(values.runs);

const p95 = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
};
const round = (ms: number) => Number(ms.toFixed(0));

await withBenchStack(
  async ({ stack, api, newForm }) => {
    const form = await newForm('Dashboard bench');
    await seedSubmissions({
      formId: form.id,
      teamId: form.teamId,
      count: SUBMISSIONS,
      data: (i) => ({ name: `Person ${i}`, email: `p${i}@example.com`, message: `Message ${i}` }),
    });
    const { dynamodb } = await import('#store/client.ts');
    const { meter, reset } = meterDynamoDb(dynamodb, routeCallsOnly);

    // A session as the dashboard gets one: the sign-in email's code, verified.
    const cookie = await sessionCookie(stack.info, api, 'pro@dev.local');

    const browser = await startChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'fs_session', value: cookie, url: stack.info.baseUrl }]);
    const page = await context.newPage();
    let apiCalls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/v1/')) apiCalls.push(`${request.method()} ${url.pathname}`);
    });
    const firstRow = () => page.locator('tbody tr').first().textContent();

    const firstRender: number[] = [];
    let firstRenderCalls: string[] = [];
    for (let run = 0; run < Math.min(RUNS, 10); run++) {
      apiCalls = [];
      const started = performance.now();
      await page.goto(`${stack.info.baseUrl}/app/forms/${form.id}`);
      await page.locator('tbody tr').nth(14).waitFor();
      firstRender.push(performance.now() - started);
      firstRenderCalls = apiCalls;
    }

    const pageChange: number[] = [];
    let pageChangeCalls: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      const before = await firstRow();
      apiCalls = [];
      const started = performance.now();
      await page.getByRole('link', { name: 'Next page' }).click();
      await page.waitForFunction(
        (previous) => document.querySelector('tbody tr')?.textContent !== previous,
        before,
      );
      pageChange.push(performance.now() - started);
      pageChangeCalls = apiCalls;
    }
    await browser.close();

    reset();
    await api('GET', `/v1/forms/${form.id}/submissions/search?q=message%2099999`);
    const searchReadUnits = Number(meter.capacity.toFixed(1));

    const result = {
      submissions: SUBMISSIONS,
      firstInboxRenderMs: { p50: round(median(firstRender)), p95: round(p95(firstRender)) },
      firstInboxRenderApiCalls: firstRenderCalls,
      pageChangeMs: { p50: round(median(pageChange)), p95: round(p95(pageChange)) },
      pageChangeApiCalls: pageChangeCalls,
      searchCallReadUnits: searchReadUnits,
    };
    process.stderr.write(
      [
        `form of ${SUBMISSIONS} submissions`,
        `first inbox render: p50 ${result.firstInboxRenderMs.p50} ms, p95 ${result.firstInboxRenderMs.p95} ms; API calls: ${firstRenderCalls.join(', ')}`,
        `page change: p50 ${result.pageChangeMs.p50} ms, p95 ${result.pageChangeMs.p95} ms; API calls: ${pageChangeCalls.join(', ')}`,
        `one search call (200 submissions read): ${searchReadUnits} read units`,
        '',
      ].join('\n'),
    );
    process.stdout.write(`${JSON.stringify(result)}\n`);
  },
  // The page change reads what the seed wrote (rows, folder counters, answer columns); the
  // stream's fan-out (summary rollups) would spend both cores for a quarter of an hour first.
  { tableStream: false },
);
