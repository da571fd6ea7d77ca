/**
 * `npm run bench:bundles [-- --cold-runs N]`: every function of the stack
 * (routes, the fallback, workers) built alone, as it ships, with the bytes a
 * cold start reads and their ratio to the floor (a bare DynamoDB client and
 * one command, same flags: dynamodb-floor.ts), and the submit handler's
 * cold module init against the floor's (medians of N fresh processes each,
 * taken in turns). A route of a group (routes.ts `group`) is measured as
 * its group's cold start for it: the dispatcher and that route's chunk.
 * Sizes are what a cold start reads (lib/bundling.ts splits what a handler
 * loads with import() into chunks); submit's total with its lazily
 * imported uploads module (the S3 client) is told apart.
 * Prints a table and a JSON line for scripts.
 */
import { parseArgs } from 'node:util';
import { fallbackRoute, routes } from '#routes';
import { workers } from '#workers';
import { bundleOf, DYNAMODB_FLOOR, groupStartupBytes, pairedColdInit } from './bundle.ts';

const { values } = parseArgs({ options: { 'cold-runs': { type: 'string', default: '15' } } });

const functions = [...routes, fallbackRoute, ...workers];
const sizes: Record<string, number> = {};
// One build at a time: two cores, and each build alone is what ships.
for (const fn of functions) {
  const alone = await bundleOf(fn.handler);
  const group = 'group' in fn ? fn.group : undefined;
  sizes[fn.name] = alone.bytes + (group ? await groupStartupBytes(group) : 0);
}
const floor = await bundleOf(DYNAMODB_FLOOR);
const submit = await bundleOf('http/submit/submit.ts');
const [submitColdInitMs, floorColdInitMs] = pairedColdInit(
  [submit.file, floor.file],
  Number(values['cold-runs']),
) as [number, number];

const ratio = (bytes: number) => Number((bytes / floor.bytes).toFixed(2));
const width = Math.max(...functions.map((f) => f.name.length));
process.stdout.write(
  `${'floor'.padEnd(width)}  ${(floor.bytes / 1024).toFixed(1).padStart(7)} KB\n`,
);
for (const [name, bytes] of Object.entries(sizes).sort(([, a], [, b]) => a - b)) {
  process.stdout.write(
    `${name.padEnd(width)}  ${(bytes / 1024).toFixed(1).padStart(7)} KB  × ${ratio(bytes).toFixed(2)}\n`,
  );
}
process.stdout.write(
  `submit with what its import() loads (the S3 client, a chunk read by the first post with files only): ${(submit.totalBytes / 1024).toFixed(1)} KB × ${ratio(submit.totalBytes).toFixed(2)}\n`,
);
process.stdout.write(
  `submit cold module init: ${submitColdInitMs} ms, floor ${floorColdInitMs} ms (medians, in turns): × ${(submitColdInitMs / floorColdInitMs).toFixed(2)}\n`,
);
process.stdout.write(
  `${JSON.stringify({
    sizes,
    floorBytes: floor.bytes,
    ratios: Object.fromEntries(Object.entries(sizes).map(([name, bytes]) => [name, ratio(bytes)])),
    submitTotalBytes: submit.totalBytes,
    submitColdInitMs,
    floorColdInitMs,
  })}\n`,
);
