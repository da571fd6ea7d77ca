import { DEFAULT_FIELDS } from '#domain/default-fields.ts';
import type { FieldDefinition } from '#domain/form-model.ts';
import { escapeHtml } from '#domain/html.ts';
import { fieldMarkup } from './field-markup.ts';
import { VIEWS_COUNTED } from './form-markup.ts';

/**
 * The HTML form of the dashboard's Share screen: plain HTML a person pastes
 * into their own site, posting to the endpoint with no script needed. Each
 * field is drawn by the hosted page's own `fieldMarkup` (field-markup.ts),
 * without the error lines only the page's script fills, so the two cannot
 * drift: `required`,
 * `min`/`max`, `minlength`/`maxlength` and `pattern` for the browser's own
 * checks, radios as radios, a select with a blank "Choose…" first, a rating
 * as radios `min` to `max` (docs/uploads-and-pages.md#the-html-form).
 *
 * The honeypot is hidden with the `hidden` attribute (the site's CSS knows
 * nothing of `.fs-hp`). The fill-time stamp `_t` is set by a one-line script
 * from the visitor's clock, which the endpoint never holds against a post
 * (docs/submit.md#the-fill-time-check); without the script the form still
 * posts, checked by the honeypot alone.
 */
/** The view image of the form whose endpoint is `{base}/s/{key}`: `{base}/f/{key}/views`. */
export const viewImageOf = (endpoint: string) => endpoint.replace(/\/s\/([^/]+)$/, '/f/$1/views');

export function htmlFormSnippet(
  endpoint: string,
  fields: readonly FieldDefinition[] | null,
  submitLabel = 'Send',
  options: { filesOff?: boolean } = {},
): string {
  // A file field of a form that cannot take files is drawn disabled, saying so, not left out.
  const filesOff = options.filesOff === true;
  const drawn = (fields ?? DEFAULT_FIELDS).map((field) =>
    filesOff && field.type === 'file' ? { ...field, required: false } : field,
  );
  const multipart = !filesOff && drawn.some((field) => field.type === 'file');
  const required = drawn.some((field) => field.required && field.type !== 'hidden')
    ? ['  <p class="fs-note">Fields marked * are required.</p>']
    : [];
  return [
    `<form class="fs-form" action="${escapeHtml(endpoint)}" method="post"${multipart ? ' enctype="multipart/form-data"' : ''}>`,
    ...required,
    ...drawn.map((field) => `  ${fieldMarkup(field, { errors: false, filesOff })}`),
    '  <!-- Spam protection: leave these two as they are. -->',
    '  <div class="fs-hp" hidden><label for="fs-hp">Leave this field empty</label><input type="text" id="fs-hp" name="_gotcha" tabindex="-1" autocomplete="off"></div>',
    '  <input type="hidden" name="_t" value="">',
    `  ${VIEWS_COUNTED}`,
    `  <button type="submit" class="fs-submit">${escapeHtml(submitLabel)}</button>`,
    '</form>',
    '<!-- Counts a view of the form, without script, for its conversion rate. -->',
    `<img src="${escapeHtml(viewImageOf(endpoint))}" alt="" width="1" height="1" hidden>`,
    '<!-- Optional: the time the page was drawn, for the fill-time check. -->',
    "<script>document.querySelectorAll('input[name=_t]').forEach(function (i) { i.value = Date.now(); });</script>",
  ].join('\n');
}
