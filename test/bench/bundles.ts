/**
 * `npm run bench:bundles [-- --cold-runs N]`: every function of the stack
 * (routes, the fallback, workers) bundled as the stack bundles it, with its
 * size and its ratio to the floor (a bare DynamoDB client and one command,
 * same flags: dynamodb-floor.ts), and the submit handler's cold module init
 * against the floor's (medians of N fresh processes each, taken in turns).
 * Sizes are what a cold start reads (lib/bundling.ts splits what a handler
 * loads with import() into chunks); submit's total with its lazily
 * imported uploads module (the S3 client) is told apart.
 * Prints a table and a JSON line for scripts.
 */
import { parseArgs } from 'node:util';
import { fallbackRoute, routes } from '../../lambdas/routes.ts';
import { workers } from '../../lambdas/workers.ts';
import { bundleOf, bundleSizes, DYNAMODB_FLOOR, pairedColdInit } from './bundle.ts';

const { values } = parseArgs({ options: { 'cold-runs': { type: 'string', default: '15' } } });

const functions = [...routes, fallbackRoute, ...workers];
const sizes = await bundleSizes(Object.fromEntries(functions.map((f) => [f.name, f.handler])));
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
