import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { build } from 'esbuild';
import { bundleFunction, ESBUILD_FLAGS, sizesOf } from '#lib/bundling.ts';
import { groupHandler } from '#routes';

export const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Issue 14's yardstick: a bare DynamoDB document client sending one command,
 * bundled with the same flags. Bundle ratios are against this file's bundle.
 */
export const DYNAMODB_FLOOR = join(import.meta.dirname, 'dynamodb-floor.ts');

/** A handler module relative to `lambdas/` (as routes and workers name it), or an absolute path. */
const entryOf = (handler: string) =>
  isAbsolute(handler) ? handler : join(ROOT, 'lambdas', handler);

/**
 * A handler bundled as the stack bundles it (lib/bundling.ts, code
 * splitting included) into a temporary directory, to import it. `bytes`:
 * what a cold start reads (the entry and the chunks it imports statically);
 * `totalBytes`: with the chunks only `import()` loads.
 */
export async function bundleOf(
  handler: string,
): Promise<{ file: string; bytes: number; totalBytes: number }> {
  const outdir = await mkdtemp(join(tmpdir(), 'form-service-bundle-'));
  const bundle = await bundleFunction(entryOf(handler), outdir);
  return { file: bundle.file, bytes: bundle.startupBytes, totalBytes: bundle.totalBytes };
}

const groupBundles = new Map<string, Promise<Record<string, number>>>();

/**
 * What a cold start of a group's function reads for one of its routes
 * (`handler`, relative to `lambdas/`), as the stack ships it: the group's
 * dispatcher built alone, its startup bytes and that route's chunk with the
 * chunks it shares with the group's other routes.
 */
export async function groupRouteBytes(group: string, handler: string): Promise<number> {
  if (!groupBundles.has(group)) {
    groupBundles.set(
      group,
      (async () => {
        const outdir = await mkdtemp(join(tmpdir(), 'form-service-bundle-'));
        return (await bundleFunction(entryOf(groupHandler(group)), outdir)).lazyStartupBytes;
      })(),
    );
  }
  const lazy = await groupBundles.get(group)!;
  const source = Object.keys(lazy).find((path) => path.endsWith(`lambdas/${handler}`));
  if (!source) throw new Error(`group ${group} loads no ${handler}`);
  return lazy[source]!;
}

/**
 * What a cold start of each handler reads (name → handler), in one esbuild
 * run that parses every module once. Chunks may be shared between entries
 * here, but an entry's startup bytes are what it reaches statically either
 * way, as in its own build.
 */
export async function bundleSizes(
  handlers: Record<string, string>,
): Promise<Record<string, number>> {
  const entryPoints = Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [name, entryOf(handler)]),
  );
  const outdir = join(tmpdir(), 'form-service-bundles');
  const result = await build({
    ...ESBUILD_FLAGS,
    entryNames: '[name]',
    entryPoints,
    outdir,
    metafile: true,
    write: false,
  });
  const sizes: Record<string, number> = {};
  for (const name of Object.keys(handlers)) {
    const { startupBytes, heaviestRouteBytes } = sizesOf(result.metafile, `${name}.mjs`);
    // A group's dispatcher alone is a few KB: its cold start also reads a route's chunk.
    sizes[name] = handlers[name]!.startsWith('http/groups/') ? heaviestRouteBytes : startupBytes;
  }
  return sizes;
}

/** Time to import a bundle in a fresh process, in ms: the cold start's module init. */
function importTime(file: string): number {
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const t = performance.now(); await import(${JSON.stringify(file)}); console.log(performance.now() - t);`,
    ],
    { env: { ...process.env, TABLE_NAME: 'bench', UPLOADS_BUCKET: 'bench' } },
  );
  return Number(out.toString().trim());
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(1));
};

/** Median time to import a bundle in a fresh process: the cold start's module init. */
export function coldInit(file: string, runs: number): number {
  return median(Array.from({ length: runs }, () => importTime(file)));
}

/**
 * Median cold init of several bundles measured in turns (a, b, a, b, …), so
 * a busy machine slows each alike and their ratio stays meaningful.
 */
export function pairedColdInit(files: readonly string[], runs: number): number[] {
  const times = files.map((): number[] => []);
  for (let run = 0; run < runs; run++) {
    for (const [i, file] of files.entries()) times[i]!.push(importTime(file));
  }
  return times.map(median);
}
