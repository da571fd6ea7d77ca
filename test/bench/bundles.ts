/**
 * `npm run bench:bundles [-- --cold-runs N]`: every function of the stack
 * (routes, the fallback, workers) built alone, as it ships, with the bytes a
 * cold start reads and their ratio to the floor (a bare DynamoDB client and
 * one command, same flags: dynamodb-floor.ts), and the submit handler's
 * cold module init against the floor's (medians of N fresh processes each,
 * taken in turns). A route of a group (routes.ts `group`) is measured as
 * its group's cold start for it, as shipped: the group built alone, its
 * dispatcher and that route's chunk with the chunks it shares with the
 * group's other routes (until 2026-11-28 the route was built alone and the
 * dispatcher added, which left out what it shares with the others).
 * Sizes are what a cold start reads (lib/bundling.ts splits what a handler
 * loads with import() into chunks); submit's total with its lazily
 * imported uploads module (the S3 client) is told apart.
 * Prints a table and a JSON line for scripts.
 */
import { parseArgs } from 'node:util';
import type { Access } from '#access';
import { fallbackRoute, routes } from '#routes';
import { workers } from '#workers';
import { bundleOf, DYNAMODB_FLOOR, groupRouteBytes, pairedColdInit } from './bundle.ts';

const { values } = parseArgs({ options: { 'cold-runs': { type: 'string', default: '15' } } });

const functions = [...routes, fallbackRoute, ...workers];
const sizes: Record<string, number> = {};
// One build at a time: two cores, and each build alone is what ships.
for (const fn of functions) {
  const group = 'group' in fn ? fn.group : undefined;
  sizes[fn.name] = group
    ? await groupRouteBytes(group, fn.handler)
    : (await bundleOf(fn.handler)).bytes;
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
// Issue 39's goals: a route that only speaks DynamoDB within × 1.35 of the floor, submit × 1.7.
const DYNAMODB_ACCESS: ReadonlySet<Access> = new Set([
  'table:read',
  'table:write',
  'rateLimits:count',
  'callers:record',
]);
const dynamodbRoutes = routes
  .filter(
    (route) =>
      route.access.some((access) => access.startsWith('table:')) &&
      route.access.every((access) => DYNAMODB_ACCESS.has(access)),
  )
  .map((route) => route.name);
const dynamodbRatios = dynamodbRoutes.map((name) => ratio(sizes[name]!));
const over = dynamodbRoutes.filter((name) => sizes[name]! > 1.35 * floor.bytes);
process.stdout.write(
  `routes that only speak DynamoDB (${dynamodbRoutes.length}): × ${Math.min(...dynamodbRatios).toFixed(2)}–${Math.max(...dynamodbRatios).toFixed(2)}, over × 1.35: ${over.length === 0 ? 'none' : over.map((name) => `${name} × ${ratio(sizes[name]!).toFixed(2)}`).join(', ')}; submit × ${ratio(sizes.submit!).toFixed(2)} (goal × 1.7)\n`,
);
process.stdout.write(
  `${JSON.stringify({
    sizes,
    floorBytes: floor.bytes,
    ratios: Object.fromEntries(Object.entries(sizes).map(([name, bytes]) => [name, ratio(bytes)])),
    dynamodbRoutesOver: over,
    submitTotalBytes: submit.totalBytes,
    submitColdInitMs,
    floorColdInitMs,
  })}\n`,
);
