/**
 * The dashboard (`app/`) bundled by esbuild for browsers: one ES module of
 * script and one stylesheet, named by their content's hash, so the shell can
 * let browsers keep them for a year (`immutable`). `node lib/app/write-app.ts`
 * (npm run app) embeds them, gzipped, in `lambdas/http/app/assets.generated.ts`,
 * which the Lambda bundle and the local stack serve as they are; a unit test
 * fails when that module is not the current build.
 */
import { createHash } from 'node:crypto';
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
    target: TARGET,
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    write: false,
    outdir: '/app-build',
    legalComments: 'none',
    charset: 'utf8',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return result.outputFiles.map((file) => {
    const extension = file.path.endsWith('.css') ? 'css' : 'js';
    const hash = createHash('sha256').update(file.text).digest('hex').slice(0, 12);
    return {
      name: `app-${hash}.${extension}`,
      contentType:
        extension === 'css' ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      text: file.text,
    };
  });
}
