import { defineContract } from '#http/contract.ts';
import { staticAnswer, staticAnswers } from './static-answer.ts';

/**
 * `GET /v1/docs`: the API reference page. Redoc (served by
 * `GET /v1/docs/redoc.js`, bundled with the service) draws it from
 * `GET /v1/openapi.json`; nothing is loaded from another origin. Both URLs
 * are relative to the page, so it works under API Gateway's stage prefix
 * and locally, with or without a trailing slash.
 */

/**
 * Only this origin's script; styles inline too (Redoc's styled-components
 * injects `<style>` elements), the spec fetched from this origin, and the
 * search index in a worker Redoc starts from a `blob:` URL.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': DOCS_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** The page, with its two URLs relative to `base` (`docs/` for `/v1/docs`, empty for `/v1/docs/`). */
function page(base: string): string {
  const spec = `${base === '' ? '../' : ''}openapi.json`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<noscript>This page needs JavaScript. The OpenAPI document is at <a href="${spec}">openapi.json</a>.</noscript>
<div id="redoc"></div>
<script src="${base}redoc.js" data-spec="${spec}"></script>
</body>
</html>
`;
}

const withoutSlash = { body: page('docs/'), headers: HEADERS };
const withSlash = { body: page(''), headers: HEADERS };

export const contract = defineContract({
  tag: 'Docs',
  answers: staticAnswers('The reference page.', 'text/html'),
  errors: [],
});

export const handler = staticAnswer(contract, (event) =>
  event.path?.endsWith('/') ? withSlash : withoutSlash,
);
