import { CONFIRM_OUTCOME_WORDS, type ConfirmOutcome } from '#domain/confirmation.ts';
import { html, raw } from '#domain/html.ts';
import { htmlPage } from '#http/html-page.ts';

/**
 * The pages of a confirmation link (docs/submit.md#confirm-by-email): the
 * page a GET shows, with one button that POSTs to the same address, and the
 * page of each outcome in words. No script, no outside resource; forms may
 * post only to this origin. Never cached, never indexed, no referrer (the
 * address holds the token).
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export const CONFIRM_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex',
};

const CSS =
  'body{font-family:system-ui,sans-serif;line-height:1.5;margin:0;padding:48px 16px;color:#111;background:#fff}' +
  'main{max-width:32rem;margin:0 auto}h1{font-size:1.5rem;margin:0 0 12px}' +
  'button{font:inherit;font-weight:600;padding:10px 20px;border:0;border-radius:6px;background:#2563eb;color:#fff;cursor:pointer}' +
  'button:focus-visible{outline:3px solid #111;outline-offset:2px}a{color:#1d4ed8}';

function page(title: string, main: ReturnType<typeof html>): string {
  return htmlPage({
    title,
    head: html`<meta name="robots" content="noindex">
<style>${raw(CSS)}</style>`,
    body: html`<main>
${main}
</main>`,
  });
}

/**
 * The page of a working link: what pressing the button does, and the
 * button. Opening the link changes nothing: mail scanners open every link
 * of an email (README, "Confirming by email").
 */
export function confirmButtonPage(formName: string): string {
  return page(
    'Confirm your answer',
    html`<h1>Confirm your answer</h1>
<p>Press the button to confirm your answer to “${formName}”.</p>
<form method="post"><button type="submit">Confirm my answer</button></form>`,
  );
}

/** The page of an outcome; `againUrl` (an expired link) is where to send the form again. */
export function outcomePage(outcome: ConfirmOutcome, againUrl?: string): string {
  const words = CONFIRM_OUTCOME_WORDS[outcome];
  return page(
    words.title,
    html`<h1>${words.title}</h1>
<p>${words.message}</p>${
      againUrl
        ? html`
<p><a href="${againUrl}">Send the form again</a></p>`
        : ''
    }`,
  );
}
