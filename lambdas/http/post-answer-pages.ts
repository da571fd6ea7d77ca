import type { FormDesign } from '#domain/form-model.ts';
import { html, raw, type SafeHtml } from '#domain/html.ts';
import { htmlPage } from './html-page.ts';

/**
 * The pages a browser sees after posting a form: thank-you, refusal, and the
 * page for someone who opens the endpoint's address. Self-contained (inline
 * style only, no script, no external resource), so the policy below can
 * forbid everything else. Built with `html`, which escapes every
 * interpolated string; the only value placed in CSS is an accent that
 * matched `#rrggbb`.
 */

/**
 * Scripts, images, fonts and forms are all refused. No `frame-ancestors`
 * limit: the styled embed may post from inside an iframe and its answer
 * must show there, and these pages offer no action worth clickjacking.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/** Headers every page is sent with; the handler adds CORS and the request id. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // The answer to one post, never to be replayed from a cache.
  'cache-control': 'no-store',
};

const DEFAULT_THANK_YOU_TITLE = 'Thank you!';
const DEFAULT_THANK_YOU_MESSAGE = 'Your submission has been received.';

/**
 * The page after a stored (or quietly dropped) submission. The caller picks
 * the copy: on Pro with `completionMode` `message`, `completionTitle` and
 * `completionMessage`; otherwise `title` null and `design.successMessage`.
 * A null, missing or blank title or message shows the default ("Thank
 * you!", "Your submission has been received."). `design` supplies only the
 * theme and accent. `backUrl` adds a "Go back" link when it is http(s).
 */
export function thankYouPage(input: {
  title?: string | null;
  message?: string | null;
  design: FormDesign;
  backUrl?: string;
}): string {
  const title = textOrUndefined(input.title) ?? DEFAULT_THANK_YOU_TITLE;
  const message = textOrUndefined(input.message) ?? DEFAULT_THANK_YOU_MESSAGE;
  const back = webUrl(input.backUrl);
  return page(
    title,
    input.design,
    html`<h1>${title}</h1>
<p class="message">${message}</p>${
      back === undefined
        ? ''
        : html`
<p><a href="${back}">Go back</a></p>`
    }`,
  );
}

/**
 * A refusal: status, title, reason, and the way back to the form, which
 * every refusal page gives (docs/uploads-and-pages.md#the-html-form): the
 * browser's back button, which returns to the form with what the visitor
 * typed (no script: the policy allows none for `history.back()`), and a
 * link to `backUrl` (the Referer) when it is an http(s) URL. A Referer of
 * an origin alone (the default referrer policy sends only that for a post
 * from another site) is not the form's page: its link says where it goes
 * ("Go to shop.example.com"), not "Go back". A 429 says when to try again
 * (`retryAfterSeconds`, its Retry-After).
 */
export function errorPage(input: {
  status: number;
  title: string;
  message: string;
  backUrl?: string;
  design?: FormDesign;
  /** The refusal of a post (not of a page opened): say how to get back to the form. */
  posted?: boolean;
  retryAfterSeconds?: number;
}): string {
  const back = webUrl(input.backUrl);
  const head = html`<p class="status">Error ${input.status}</p>
<h1>${input.title}</h1>
<p class="message">${input.message}</p>
`;
  if (!input.posted) {
    return page(
      input.title,
      input.design ?? {},
      html`${head}${
        back === undefined
          ? html`<p class="hint">Use your browser’s back button to return to the form.</p>`
          : html`<p><a href="${back}">Go back</a></p>`
      }`,
    );
  }
  const onlyOrigin = back !== undefined && new URL(back).pathname === '/' && !new URL(back).search;
  const wait = input.retryAfterSeconds;
  return page(
    input.title,
    input.design ?? {},
    html`${head}${
      wait !== undefined && wait > 0
        ? html`<p>Wait ${waitWords(wait)}, then send the form again.</p>
`
        : ''
    }<p class="hint">Nothing was sent. Your browser’s back button returns to the form, with what you typed still in it.</p>${
      back === undefined
        ? ''
        : onlyOrigin
          ? html`
<p><a href="${back}">Go to ${new URL(back).host}</a></p>`
          : html`
<p><a href="${back}">Go back to the form</a></p>`
    }`,
  );
}

/** "a few seconds", "about 40 seconds", "about a minute". */
function waitWords(seconds: number): string {
  if (seconds <= 5) return 'a few seconds';
  if (seconds < 60) return `about ${Math.ceil(seconds / 10) * 10} seconds`;
  const minutes = Math.round(seconds / 60);
  return minutes <= 1 ? 'about a minute' : `about ${minutes} minutes`;
}

/** For a browser that opens the submit address: what it is, and that there is nothing to see. */
export function methodNotAllowedPage(): string {
  return page(
    'This address receives form submissions',
    {},
    html`<p class="status">Error 405</p>
<h1>This address receives form submissions</h1>
<p class="message">Websites send their forms here with a POST request. It is not a web page to open: to get in touch, fill in the form on the website that uses it.</p>`,
  );
}

function textOrUndefined(value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * The URL as given when it is absolute http(s), so the link leads exactly
 * where the visitor was. The browser parses the href with the same WHATWG
 * parser, so `javascript:` and friends cannot pass as http.
 */
function webUrl(value: string | undefined): string | undefined {
  if (value === undefined || !URL.canParse(value)) return undefined;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:' ? value : undefined;
}

const ACCENT = /^#[0-9a-f]{6}$/i;

const LIGHT = '--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--accent:#0969da;color-scheme:light';
const DARK = '--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--accent:#4493f8;color-scheme:dark';

/** Theme colours, then the form's accent over both schemes when it is a plain `#rrggbb`. */
function themeCss(design: FormDesign): string {
  const accent = design.accent !== undefined && ACCENT.test(design.accent) ? design.accent : '';
  const override = accent === '' ? '' : `:root{--accent:${accent}}`;
  switch (design.theme) {
    case 'light':
      return `:root{${LIGHT}}${override}`;
    case 'dark':
      return `:root{${DARK}}${override}`;
    default:
      return `:root{${LIGHT}}@media (prefers-color-scheme:dark){:root{${DARK}}}${override}`;
  }
}

const BASE_CSS = [
  '*{box-sizing:border-box}',
  'body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:24px;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}',
  'main{width:100%;max-width:36rem;border-top:4px solid var(--accent);padding-top:24px}',
  'h1{font-size:1.5rem;line-height:1.25;margin:0 0 12px;overflow-wrap:anywhere}',
  'p{margin:0 0 16px}',
  '.message{white-space:pre-line;overflow-wrap:anywhere}',
  '.status,.hint{color:var(--muted);font-size:.875rem}',
  'a{color:var(--accent)}',
  'a:focus-visible{outline:2px solid var(--accent);outline-offset:2px}',
].join('');

/** The page around `main`: the policy repeated in a meta tag, no indexing, the theme's style. */
function page(title: string, design: FormDesign, main: SafeHtml): string {
  return htmlPage({
    title,
    head: html`<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="robots" content="noindex">
<style>${raw(themeCss(design) + BASE_CSS)}</style>`,
    body: html`<main>
${main}
</main>`,
  });
}
