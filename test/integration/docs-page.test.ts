import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_CSP } from '#http/docs/get-docs-page.ts';
import { REDOC_GZIP_BASE64, REDOC_VERSION } from '#http/docs/redoc-bundle.generated.ts';
import { patchedRedocBundle, redocVersion } from '#lib/openapi/redoc-asset.ts';
import { routes } from '#routes';
import { api, stack } from '#test/support/api.ts';
import { launchChromium, visit } from '#test/support/browser.ts';

/** Git-ignored (`.local/`): the screenshot is for a human to look at, not committed. */
const OUTPUT_DIR = new URL('../../.local/test-output/', import.meta.url);
const document = JSON.parse(
  readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'),
) as {
  info: { title: string };
};
const submitSummary = routes.find((route) => route.name === 'submit')!.summary;

describe('GET /v1/docs over plain HTTP', () => {
  it('answers HTML with a strict CSP, nosniff, a cache header and an ETag', async () => {
    const response = await api('GET', '/v1/docs', { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy');
    expect(csp).toBe(DOCS_CSP);
    const directives = new Map(
      csp!.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    // Relative URLs: they hold under API Gateway's stage prefix too.
    expect(response.text).toContain('<script src="docs/redoc.js" data-spec="openapi.json">');
    expect(response.text).not.toMatch(/https?:\/\//);
  });

  it('with a trailing slash, its URLs still point at the script and the document', async () => {
    const response = await api('GET', '/v1/docs/', { key: null });
    expect(response.status).toBe(200);
    expect(response.text).toContain('<script src="redoc.js" data-spec="../openapi.json">');
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await api('GET', '/v1/docs', { key: null });
    const again = await api('GET', '/v1/docs', {
      key: null,
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('serves the script as JavaScript: Redoc, then the start-up', async () => {
    const response = await api('GET', '/v1/docs/redoc.js', { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(response.text.startsWith(patchedRedocBundle())).toBe(true);
    expect(response.text).toContain('Redoc.init(script.dataset.spec');
    expect(response.text).not.toContain('cdn.redoc.ly');
  });

  it('the embedded bundle is the installed redoc (else run `node lib/openapi/write-redoc.ts`)', () => {
    expect(REDOC_VERSION).toBe(redocVersion());
    const embedded = gunzipSync(Buffer.from(REDOC_GZIP_BASE64, 'base64')).toString('utf8');
    expect(
      embedded === patchedRedocBundle(),
      'embedded bundle differs from node_modules/redoc',
    ).toBe(true);
  });
});

describe('GET /v1/docs in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The page at `path`, wide enough for Redoc's three columns. */
  const open = (path: string) =>
    visit(browser, `${stack().baseUrl}${path}`, { viewport: { width: 1280, height: 900 } });

  const offOrigin = (urls: string[]) =>
    urls.filter((url) => {
      const { protocol, hostname } = new URL(url);
      // data: and blob: URLs (Redoc's search worker) never reach a network.
      return (protocol === 'http:' || protocol === 'https:') && hostname !== '127.0.0.1';
    });

  it('draws the API from this origin only, without errors, and looks like something', async () => {
    const docs = await open('/v1/docs');
    try {
      const { page } = docs;
      await page
        .getByRole('heading', { name: document.info.title, exact: false })
        .first()
        .waitFor({ timeout: 20_000 });
      await page.getByRole('heading', { name: submitSummary }).waitFor({ timeout: 20_000 });
      // The document came from this origin, relative to the page.
      expect(docs.requests).toContain(`${stack().baseUrl}/v1/openapi.json`);
      expect(docs.requests).toContain(`${stack().baseUrl}/v1/docs/redoc.js`);
      expect(offOrigin(docs.requests), 'requests that left 127.0.0.1').toEqual([]);
      expect([...docs.errors, ...docs.failed], 'console errors and failed responses').toEqual([]);

      mkdirSync(OUTPUT_DIR, { recursive: true });
      const file = new URL('docs-page.png', OUTPUT_DIR);
      const png = await page.screenshot({ path: file.pathname });
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      // A blank 1280×900 PNG is a few KB; the drawn page is tens of KB.
      expect(statSync(file).size).toBeGreaterThan(30_000);
    } finally {
      await docs.close();
    }
  });

  it('works with a trailing slash too', async () => {
    const docs = await open('/v1/docs/');
    try {
      await docs.page.getByRole('heading', { name: submitSummary }).waitFor({ timeout: 20_000 });
      expect(offOrigin(docs.requests), 'requests that left 127.0.0.1').toEqual([]);
      expect([...docs.errors, ...docs.failed], 'console errors and failed responses').toEqual([]);
    } finally {
      await docs.close();
    }
  });
});
