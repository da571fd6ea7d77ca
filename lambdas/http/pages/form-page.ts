import { html, raw } from '#domain/html.ts';
import type { PublicForm } from '#domain/public-form.ts';
import { htmlPage } from '#http/html-page.ts';
import { formCss, formMarkup } from './form-markup.ts';

/**
 * The hosted form page (`GET /f/{key}`): the form drawn on the server, so it
 * works without JavaScript (a plain POST to `/s/{key}` and the thank-you
 * page), plus `/embed.js` in page mode, which checks answers in place and
 * posts with fetch. URLs are relative to the page, so the stage prefix does
 * not matter.
 */

const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';

/**
 * The page's policy. Scripts: this origin only (and Turnstile's when the
 * form has a captcha), never inline. Styles: the one `<style>` element with
 * this response's nonce. Posts (form and fetch) go to this origin, or for a
 * browser post that ends in a redirect, to the redirect's origin too.
 * Framing follows `allowedOrigins`: empty means every website may post to
 * the form, so every website may frame its page too (`*`); a list lets
 * exactly those websites (and this origin) frame it. A form that takes
 * files sends them straight to the uploads bucket: `uploadsOrigin` (the
 * origin of the presigned POSTs) joins `connect-src`.
 */
export function formPageCsp(
  view: Pick<PublicForm, 'captchaSiteKey' | 'redirectUrl'>,
  allowedOrigins: readonly string[],
  nonce: string,
  uploadsOrigin?: string,
): string {
  const captcha = view.captchaSiteKey !== null;
  const redirect = view.redirectUrl === null ? '' : ` ${new URL(view.redirectUrl).origin}`;
  return [
    "default-src 'none'",
    `script-src 'self'${captcha ? ` ${TURNSTILE_ORIGIN}` : ''}`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    `connect-src 'self'${uploadsOrigin ? ` ${uploadsOrigin}` : ''}`,
    ...(captcha ? [`frame-src ${TURNSTILE_ORIGIN}`] : []),
    `form-action 'self'${redirect}`,
    "base-uri 'none'",
    `frame-ancestors ${allowedOrigins.length === 0 ? '*' : ["'self'", ...allowedOrigins].join(' ')}`,
  ].join('; ');
}

/** JSON inside `<script type="application/json">`: `<` escaped so no `</script>` can end it. */
function jsonBlock(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * The page. `base` leads from the page's URL to the API root (`../` for
 * `/f/{key}`, `../../` with a trailing slash).
 */
export function formPage(
  view: PublicForm,
  options: {
    base: string;
    nonce: string;
    script?: boolean;
    /** Values from the page's URL (`prefillValues`). */
    prefill?: Readonly<Record<string, string>>;
  },
): string {
  const { base, nonce } = options;
  const shown = view.closedMessage === null;
  const open = shown && options.script !== false;
  const action = `${base}s/${encodeURIComponent(view.key)}`;
  // Without the script (off in the browser, or left out of a page too large), the view image
  // counts the view the beacon would have (docs/analytics.md#views).
  const image = html`<img src="${base}f/${encodeURIComponent(view.key)}/views" alt="" width="1" height="1" hidden>`;
  const viewImage = !shown ? '' : open ? html`<noscript>${image}</noscript>` : image;
  return htmlPage({
    title: view.title,
    head: html`<link rel="icon" href="data:,">
<style nonce="${nonce}">${raw(`body{margin:0;background:var(--fs-bg);min-height:100vh}main{padding:24px 0}${formCss(view, ':root')}`)}</style>`,
    body: html`<main>${raw(formMarkup(view, { action, headingLevel: 1, prefill: options.prefill }))}${viewImage}</main>${
      open
        ? html`
<script type="application/json" id="fs-data">${raw(jsonBlock(view))}</script>
<script src="${base}embed.js" data-page async></script>${
            view.captchaSiteKey === null
              ? ''
              : html`
<script src="${TURNSTILE_ORIGIN}/turnstile/v0/api.js" async defer></script>`
          }`
        : ''
    }`,
  });
}

/**
 * Lambda answers at most 6 MB, the body JSON-encoded inside. A form at its
 * settings' limits with ordinary text draws about 2 MB; one whose 3,000
 * options are 200 quote marks each (6 bytes escaped, twice per radio) would
 * draw 8.8 MB.
 */
export const MAX_PAGE_BYTES = 4_000_000;

/**
 * The page within MAX_PAGE_BYTES: whole, else without the script and its
 * JSON block (the form still posts without JavaScript), else undefined.
 */
export function boundedFormPage(
  view: PublicForm,
  options: { base: string; nonce: string; prefill?: Readonly<Record<string, string>> },
): string | undefined {
  for (const script of [true, false]) {
    const page = formPage(view, { ...options, script });
    if (Buffer.byteLength(page) <= MAX_PAGE_BYTES) return page;
  }
  return undefined;
}
