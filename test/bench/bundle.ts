import { execFileSync } from 'node:child_process';
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

export const ROOT = join(import.meta.dirname, '..', '..');

/**
 * A handler bundled as the stack bundles it (lib/constructs/service-function.ts:
 * ESM, node24, module fields first, minified, the SDK inside).
 */
export async function bundleOf(handler: string): Promise<{ file: string; bytes: number }> {
  const outdir = await mkdtemp(join(tmpdir(), 'form-service-bundle-'));
  const file = join(outdir, 'index.mjs');
  await build({
    entryPoints: [join(ROOT, 'lambdas', handler)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    mainFields: ['module', 'main'],
    minify: true,
    outfile: file,
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
  return { file, bytes: (await stat(file)).size };
}

/** Median time to import a bundle in a fresh process: the cold start's module init. */
export function coldInit(file: string, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const t = performance.now(); await import(${JSON.stringify(file)}); console.log(performance.now() - t);`,
      ],
      { env: { ...process.env, TABLE_NAME: 'bench', UPLOADS_BUCKET: 'bench' } },
    );
    times.push(Number(out.toString().trim()));
  }
  times.sort((a, b) => a - b);
  return Number(times[Math.floor(runs / 2)]!.toFixed(1));
}
