import { join } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';

/**
 * How every function is bundled, in one place: the stack's build
 * (lib/constructs/service-function.ts runs `bundleFunction` after
 * NodejsFunction's own pass), the bundle budgets and the benches.
 *
 * ESM for Node 24, module fields first (tree-shakes the SDK), the SDK
 * inside (the runtime's copy is a version never tested against), minified,
 * and code splitting: what a handler loads with `import()` (submit's S3
 * client, needed only by a post with files) goes to its own chunk, so it is
 * neither read nor parsed at a cold start that does not need it.
 */
export const ESBUILD_FLAGS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  mainFields: ['module', 'main'],
  minify: true,
  splitting: true,
  entryNames: 'index',
  chunkNames: 'chunk-[hash]',
  outExtension: { '.js': '.mjs' },
  // Bundled CommonJS dependencies call require(), which ESM lacks.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'error',
} as const satisfies BuildOptions;

export interface FunctionBundle {
  /** The handler module a Lambda loads: `<outdir>/index.mjs`. */
  file: string;
  /** Bytes read at a cold start: the entry and every chunk it imports statically. */
  startupBytes: number;
  /** Every output file's bytes, lazily imported chunks included. */
  totalBytes: number;
  /**
   * For each module the entry loads with `import()` (by its source path): what
   * a cold start reads when its first request needs it, the startup bytes and
   * that chunk with what it imports beyond them. A group's route (routes.ts
   * `group`) is such a module: this is its cold start as shipped, chunks shared
   * with the group's other routes included.
   */
  lazyStartupBytes: Record<string, number>;
}

/**
 * Bundles one handler into `outdir` (index.mjs plus chunks). With
 * `sourceMap`, maps without sources (stack traces need the mappings only).
 */
export async function bundleFunction(
  entry: string,
  outdir: string,
  options: { sourceMap?: boolean } = {},
): Promise<FunctionBundle> {
  const result = await build({
    ...ESBUILD_FLAGS,
    entryPoints: [entry],
    outdir,
    metafile: true,
    sourcemap: options.sourceMap ? true : undefined,
    sourcesContent: options.sourceMap ? false : undefined,
  });
  const file = join(outdir, 'index.mjs');
  return { file, ...sizesOf(result.metafile, 'index.mjs') };
}

/** Startup and total bytes of the output named `entryFile` in a metafile. */
export function sizesOf(
  metafile: Metafile,
  entryFile: string,
): {
  startupBytes: number;
  totalBytes: number;
  heaviestRouteBytes: number;
  lazyStartupBytes: Record<string, number>;
} {
  const outputs = metafile.outputs;
  const key = Object.keys(outputs).find(
    (path) => path === entryFile || path.endsWith(`/${entryFile}`),
  );
  if (!key) throw new Error(`no output ${entryFile} in the metafile`);
  const dir = key.slice(0, key.length - entryFile.length);
  const visit = (path: string, seen: Set<string>): number => {
    if (seen.has(path)) return 0;
    seen.add(path);
    const output = outputs[path];
    if (!output) return 0;
    let bytes = output.bytes;
    for (const imported of output.imports) {
      if (imported.kind === 'import-statement' && !imported.external) {
        bytes += visit(imported.path, seen);
      }
    }
    return bytes;
  };
  const startup = new Set<string>();
  const startupBytes = visit(key, startup);
  // A group's function (routes.ts `group`) loads one route's chunk with import() at its
  // first request: its cold start reads the startup bytes and the heaviest such chunk.
  const lazy = (outputs[key]?.imports ?? []).filter(
    (imported) => imported.kind === 'dynamic-import' && !imported.external,
  );
  const lazyStartupBytes: Record<string, number> = {};
  for (const imported of lazy) {
    const source = outputs[imported.path]?.entryPoint ?? imported.path;
    lazyStartupBytes[source] = startupBytes + visit(imported.path, new Set(startup));
  }
  const heaviestRouteBytes = Math.max(startupBytes, ...Object.values(lazyStartupBytes));
  let totalBytes = 0;
  for (const [path, output] of Object.entries(outputs)) {
    if (path.startsWith(dir) && !path.endsWith('.map')) totalBytes += output.bytes;
  }
  return { startupBytes, totalBytes, heaviestRouteBytes, lazyStartupBytes };
}
