/**
 * The API reference page's renderer: Redoc's standalone bundle, taken from
 * the `redoc` devDependency and embedded in a generated module
 * (`lambdas/http/docs/redoc-bundle.generated.ts`), so the Lambda bundle
 * (esbuild) and the local stack (Node's type stripping) get the same text
 * without reading node_modules at run time. `node lib/openapi/write-redoc.ts`
 * rewrites it after a version change; the docs page test fails when the
 * module is not the installed bundle.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Redoc's sidebar footer always draws Redocly's logo from
 * `https://cdn.redoc.ly` (no option turns it off). The page must not touch
 * the network, so the logo becomes an empty inline SVG: the only change
 * made to the vendor bundle.
 */
const LOGO_URL = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_SVG =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='0' height='0'/%3E";

export function redocVersion(): string {
  const pkg = JSON.parse(readFileSync(require.resolve('redoc/package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** The installed standalone bundle with the logo URL replaced; throws when the URL is not there once. */
export function patchedRedocBundle(): string {
  const source = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
  const occurrences = source.split(LOGO_URL).length - 1;
  if (occurrences !== 1) {
    throw new Error(
      `expected the Redocly logo URL once in redoc.standalone.js, found ${occurrences}`,
    );
  }
  return source.replace(LOGO_URL, EMPTY_SVG);
}
