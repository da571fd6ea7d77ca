import { config } from '#config';
import { html } from '#domain/html.ts';
import { retryWindowWords } from '#domain/retry-window.ts';
import { cookieValue, SESSION_COOKIE } from '#domain/sessions.ts';
import { header } from '#http/request.ts';
import { withRequestId } from '#http/request-id.ts';
import { APP_SCRIPT, APP_STYLES } from './app-assets.ts';

/**
 * `GET /app` and every `/app/...` path: the dashboard's page, the same for
 * all of them (the script routes in the browser). Only this origin's script
 * and styles; the API is the same origin, so the session cookie goes along
 * and no CORS is involved. Never cached: it names the current build.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

export const handler = withRequestId(async (event) => {
  // The API Gateway stage, or nothing locally: assets and API calls are under it.
  const basePath = new URL(config.baseUrl).pathname.replace(/\/+$/, '');
  // Without a session cookie the page starts at sign-in, asking the API nothing.
  const session = cookieValue(header(event, 'cookie'), SESSION_COOKIE) ? 'maybe' : 'none';
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': APP_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'x-frame-options': 'DENY',
    },
    body: html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="base-path" content="${basePath}">
<meta name="session" content="${session}">
<meta name="webhook-retry-window" content="${retryWindowWords(config.webhookRetryDelaysSeconds)}">
<meta name="color-scheme" content="light dark">
<title>Forms</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${basePath}/app/assets/${APP_STYLES}">
<script type="module" src="${basePath}/app/assets/${APP_SCRIPT}"></script>
</head>
<body>
<div id="app"><noscript>The dashboard needs JavaScript. The API works without it: see ${basePath}/v1/docs.</noscript></div>
</body>
</html>
`.toString(),
  };
});
