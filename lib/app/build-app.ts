/**
 * The dashboard (`app/`) bundled by esbuild for browsers: an ES module of
 * script (with chunks for the screens it loads later) and one stylesheet,
 * named by their content's hash, so the shell can
 * let browsers keep them for a year (`immutable`). `node lib/app/write-app.ts`
 * (npm run app) embeds them, gzipped, in `lambdas/http/app/assets.generated.ts`,
 * which the Lambda bundle and the local stack serve as they are; a unit test
 * fails when that module is not the current build.
 */
import { buildSync } from 'esbuild';

const ENTRY = new URL('../../app/main.tsx', import.meta.url).pathname;

/** Browsers from 2023 on (ES2022, :has(), nested CSS not used). */
const TARGET = ['chrome110', 'firefox115', 'safari16.4'];

export interface AppAsset {
  name: string;
  contentType: string;
  text: string;
}

export function buildApp(): AppAsset[] {
  const result = buildSync({
    entryPoints: { app: ENTRY },
    bundle: true,
    minify: true,
    format: 'esm',
    // Screens past the inbox that bring heavy code (the settings screen checks with the
    // route's own zod schema) load as chunks of their own when first opened.
    splitting: true,
    entryNames: 'app-[hash]',
    chunkNames: 'chunk-[hash]',
    target: TARGET,
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    write: false,
    outdir: '/app-build',
    legalComments: 'none',
    charset: 'utf8',
    define: { 'process.env.NODE_ENV': '"production"' },
    // The domain's schemas and templates run in the page too (the settings screen checks with
    // the route's own schema, the emails screen renders the real templates): the Node modules
    // they touch get browser stand-ins.
    alias: {
      'node:net': new URL('../../app/shims/net.ts', import.meta.url).pathname,
      'node:crypto': new URL('../../app/shims/crypto.ts', import.meta.url).pathname,
      'node:url': new URL('../../app/shims/url.ts', import.meta.url).pathname,
    },
  });
  // esbuild names each file by its content's hash; the entry imports its chunks by those names.
  return result.outputFiles.map((file) => {
    const extension = file.path.endsWith('.css') ? 'css' : 'js';
    return {
      name: file.path.split('/').at(-1)!,
      contentType:
        extension === 'css' ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      text: file.text,
    };
  });
}
