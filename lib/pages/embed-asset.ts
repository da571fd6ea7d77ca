/**
 * The hosted page's and the embed's script: `lambdas/http/pages/client/`
 * bundled by esbuild (one minified IIFE, no framework), embedded in a
 * generated module (`lambdas/http/pages/embed-script.generated.ts`) so the
 * Lambda bundle and the local stack serve the same text without building at
 * run time. `node lib/pages/write-embed.ts` rewrites it after a change to the
 * client or to what it imports; the form page test fails when it is stale.
 */
import { buildSync } from 'esbuild';

const ENTRY = new URL('../../lambdas/http/pages/client/form-client.ts', import.meta.url).pathname;

/** Browsers from 2022 on (Object.hasOwn, `??=`, adoptedStyleSheets). */
const TARGET = ['chrome100', 'firefox101', 'safari16.4'];

export function buildEmbedScript(): string {
  const result = buildSync({
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: 'iife',
    target: TARGET,
    platform: 'browser',
    write: false,
    legalComments: 'none',
    charset: 'utf8',
  });
  return result.outputFiles[0]!.text;
}
