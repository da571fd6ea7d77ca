import { DEFAULT_FIELDS } from '#domain/default-fields.ts';
import { type FormPage, hasLogic, isPrefillable } from '#domain/form-logic.ts';
import type { FieldDefinition } from '#domain/form-model.ts';
import { escapeHtml } from '#domain/html.ts';
import { fieldMarkup } from './field-markup.ts';
import { VIEWS_COUNTED } from './form-markup.ts';
import {
  alwaysAskedFields,
  PAGE_SECTION_END,
  pageGroups,
  pageSectionStart,
} from './page-sections.ts';

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
 *
 * A form with logic (pages, fields shown or required on earlier answers,
 * hidden or prefilled fields) draws its pages as sections and ends with the
 * service's script in its logic mode (`embed.js` with `data-logic`:
 * docs/uploads-and-pages.md#the-logic-script), which adds steps, showing,
 * hiding and prefill to the HTML as pasted. Without it the form is one long
 * page, and the server's walk keeps only the answers of the questions asked.
 */
/** The view image of the form whose endpoint is `{base}/s/{key}`: `{base}/f/{key}/views`. */
export const viewImageOf = (endpoint: string) => endpoint.replace(/\/s\/([^/]+)$/, '/f/$1/views');

export function htmlFormSnippet(
  endpoint: string,
  fields: readonly FieldDefinition[] | null,
  submitLabel = 'Send',
  options: { filesOff?: boolean; pages?: readonly FormPage[] | null } = {},
): string {
  // A file field of a form that cannot take files is drawn disabled, saying so, not left out.
  const filesOff = options.filesOff === true;
  const drawn = (fields ?? DEFAULT_FIELDS).map((field) =>
    filesOff && field.type === 'file' ? { ...field, required: false } : field,
  );
  const logicPages = fields ? (options.pages ?? null) : null;
  const multipart = !filesOff && drawn.some((field) => field.type === 'file');
  const required = drawn.some(
    (field) => (field.required && field.type !== 'hidden') || field.requiredIf,
  )
    ? ['  <p class="fs-note">Fields marked * are required.</p>']
    : [];
  const asked = alwaysAskedFields(drawn, logicPages);
  const draw = (field: FieldDefinition, indent: string) =>
    `${indent}${fieldMarkup(field, { errors: false, alwaysAsked: asked.has(field.id), filesOff })}`;
  const body = pageGroups(drawn, logicPages).flatMap(({ page, fields: grouped }) =>
    page
      ? [
          `  ${pageSectionStart(page, 2)}`,
          ...grouped.map((field) => draw(field, '    ')),
          `  ${PAGE_SECTION_END}`,
        ]
      : grouped.map((field) => draw(field, '  ')),
  );
  const logic = { fields: drawn, pages: logicPages };
  const script =
    hasLogic(logic) || drawn.some(isPrefillable)
      ? [
          '<!-- Optional: steps, questions shown on earlier answers, and prefill from the page’s address. -->',
          `<script src="${escapeHtml(logicScriptOf(endpoint))}" data-logic="${escapeHtml(keyOf(endpoint))}" async></script>`,
        ]
      : [];
  return [
    `<form class="fs-form" action="${escapeHtml(endpoint)}" method="post"${multipart ? ' enctype="multipart/form-data"' : ''}>`,
    ...required,
    ...body,
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
    ...script,
  ].join('\n');
}

/** The service's script beside the endpoint `{base}/s/{key}`: `{base}/embed.js`. */
const logicScriptOf = (endpoint: string) => endpoint.replace(/\/s\/[^/]+$/, '/embed.js');
/** The form key of the endpoint `{base}/s/{key}`. */
const keyOf = (endpoint: string) => decodeURIComponent(endpoint.replace(/^.*\/s\//, ''));
