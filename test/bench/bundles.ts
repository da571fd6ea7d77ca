/**
 * `npm run bench:bundles [-- --cold-runs N]`: every function of the stack
 * (routes, the fallback, workers) bundled as the stack bundles it, with its
 * size, and the submit handler's cold module init (median of N fresh
 * processes). Prints a table and a JSON line for scripts.
 */
import { parseArgs } from 'node:util';
import { fallbackRoute, routes } from '../../lambdas/routes.ts';
import { workers } from '../../lambdas/workers.ts';
import { bundleOf, coldInit } from './bundle.ts';

const { values } = parseArgs({ options: { 'cold-runs': { type: 'string', default: '15' } } });

const functions = [...routes, fallbackRoute, ...workers].map((f) => ({
  name: f.name,
  handler: f.handler,
}));
const sizes: Record<string, number> = {};
let submitFile = '';
for (const fn of functions) {
  const bundle = await bundleOf(fn.handler);
  sizes[fn.name] = bundle.bytes;
  if (fn.handler === 'http/submit/submit.ts') submitFile = bundle.file;
}
const submitColdInitMs = coldInit(submitFile, Number(values['cold-runs']));

const width = Math.max(...functions.map((f) => f.name.length));
for (const [name, bytes] of Object.entries(sizes).sort(([, a], [, b]) => a - b)) {
  process.stdout.write(`${name.padEnd(width)}  ${(bytes / 1024).toFixed(1).padStart(7)} KB\n`);
}
process.stdout.write(`submit cold module init: ${submitColdInitMs} ms (median)\n`);
process.stdout.write(`${JSON.stringify({ sizes, submitColdInitMs })}\n`);
