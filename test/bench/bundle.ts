import { execFileSync } from 'node:child_process';
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { type BuildOptions, build, type Plugin } from 'esbuild';

export const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Issue 14's yardstick: a bare DynamoDB document client sending one command,
 * bundled with the same flags. Bundle ratios are against this file's bundle.
 */
export const DYNAMODB_FLOOR = join(import.meta.dirname, 'dynamodb-floor.ts');

/**
 * The stack's esbuild flags (lib/constructs/service-function.ts: ESM,
 * node24, module fields first, minified, the SDK inside, the createRequire
 * banner). The source map is a separate file there, so it is left out here.
 */
const STACK_FLAGS: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  mainFields: ['module', 'main'],
  minify: true,
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'error',
};

/** A handler module relative to `lambdas/` (as routes and workers name it), or an absolute path. */
const entryOf = (handler: string) =>
  isAbsolute(handler) ? handler : join(ROOT, 'lambdas', handler);

/**
 * A handler bundled as the stack bundles it, written to a temporary file (to
 * import it). `withoutLazyBytes`: the same bundle without the modules that
 * only the service's own `import()` calls load (see `lazyImportsLeftOut`).
 */
export async function bundleOf(
  handler: string,
): Promise<{ file: string; bytes: number; withoutLazyBytes: number }> {
  const outdir = await mkdtemp(join(tmpdir(), 'form-service-bundle-'));
  const file = join(outdir, 'index.mjs');
  await build({ ...STACK_FLAGS, entryPoints: [entryOf(handler)], outfile: file });
  const withoutLazy = await build({
    ...STACK_FLAGS,
    entryPoints: [entryOf(handler)],
    outfile: file,
    write: false,
    plugins: [lazyImportsLeftOut],
  });
  return {
    file,
    bytes: (await stat(file)).size,
    withoutLazyBytes: withoutLazy.outputFiles[0]!.contents.length,
  };
}

/**
 * Leaves out what the service's own `import()` calls load (submit's uploads
 * module, with the S3 client). The stack's one-file build inlines such a
 * module: evaluated by its first `import()`, but its bytes are in the file
 * and parsed at every cold start. The SDK's own lazy imports (credential
 * providers) stay in, as they do in the floor.
 */
const lazyImportsLeftOut: Plugin = {
  name: 'lazy-imports-left-out',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' && !args.importer.includes('/node_modules/')
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

/**
 * The bundle size of each handler (name → handler), in one esbuild run that
 * parses every module once: without code splitting each entry still gets
 * its own self-contained bundle, byte for byte the one `bundleOf` builds,
 * in a fraction of the time of one run per function.
 */
export async function bundleSizes(
  handlers: Record<string, string>,
): Promise<Record<string, number>> {
  const entryPoints = Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [name, entryOf(handler)]),
  );
  const result = await build({
    ...STACK_FLAGS,
    entryPoints,
    outdir: join(tmpdir(), 'form-service-bundles'),
    outExtension: { '.js': '.mjs' },
    write: false,
  });
  const sizes: Record<string, number> = {};
  for (const output of result.outputFiles) {
    const name = output.path.slice(output.path.lastIndexOf('/') + 1, -'.mjs'.length);
    sizes[name] = output.contents.length;
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
