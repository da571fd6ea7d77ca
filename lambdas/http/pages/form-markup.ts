import { escapeHtml } from '#domain/html.ts';
import type { PublicForm } from '#domain/public-form.ts';
import { attributes, fieldMarkup, ids } from './field-markup.ts';
import {
  alwaysAskedFields,
  PAGE_SECTION_END,
  pageGroups,
  pageSectionStart,
} from './page-sections.ts';

export { ids } from './field-markup.ts';

/**
 * The form's HTML and CSS, one code for both places that draw it: the hosted
 * page renders it on the server (`GET /f/{key}`), the embed renders it in the
 * visitor's browser inside a shadow root (bundled into `/embed.js`). Every
 * setting goes through `escapeHtml`; the only setting placed in CSS is an
 * accent that matched `#rrggbb` (publicFormOf). No inline script, no inline
 * `style` attribute: the page's CSP allows neither. Each field is drawn by
 * field-markup.ts, which the dashboard's HTML form shares.
 */

export interface MarkupOptions {
  /** Where the `<form>` posts without JavaScript: `../s/{key}` on the page, absolute in the embed. */
  action: string;
  /** Heading level of the title: 1 on the hosted page, 2 inside a customer's page. */
  headingLevel: 1 | 2;
  /** Values the fields start with, from the page's URL (`prefillValues`). */
  prefill?: Readonly<Record<string, string>>;
}

const e = escapeHtml;

/** The special field a page that counts its views posts (docs/submit.md#special-fields). */
export const VIEWS_COUNTED = '<input type="hidden" name="_views" value="counted">';

/**
 * The title, description, and then the form (or the closed message). The
 * form carries the honeypot (`_gotcha`, hidden from people and assistive
 * technology), the fill-time stamp (`_t`), the Turnstile widget's box when
 * the form has a captcha, a polite live region for what the script reports,
 * and a hidden success block the script reveals.
 */
export function formMarkup(form: PublicForm, options: MarkupOptions): string {
  const h = `h${options.headingLevel}`;
  const parts = [`<${h} class="fs-title" id="${ids.title}">${e(form.title)}</${h}>`];
  if (form.description !== null) parts.push(`<p class="fs-description">${e(form.description)}</p>`);
  if (form.closedMessage !== null) {
    parts.push(`<p class="fs-closed" role="status">${e(form.closedMessage)}</p>`);
    return `<div class="fs">${parts.join('')}</div>`;
  }
  const required = form.fields.some(
    (field) => (field.required && field.type !== 'hidden') || field.requiredIf,
  )
    ? '<p class="fs-note">Fields marked <span aria-hidden="true">*</span><span class="fs-sr">with a star</span> are required.</p>'
    : '';
  const captcha =
    form.captchaSiteKey === null
      ? ''
      : `<div class="fs-field cf-turnstile" data-sitekey="${e(form.captchaSiteKey)}"></div>`;
  parts.push(
    // A refusal of the whole post goes here, above the fields, focused so it is seen:
    // not under the last field the visitor touched (docs/uploads-and-pages.md#hosted-form-page-and-embed).
    `<div class="fs-alert" id="${ids.alert}" role="alert" tabindex="-1" hidden></div>`,
    `<form class="fs-form"${attributes({
      method: 'post',
      action: options.action,
      enctype: form.multipart ? 'multipart/form-data' : undefined,
      'aria-labelledby': ids.title,
    })}>`,
    required,
    fieldsMarkup(form, options.headingLevel + 1, options.prefill),
    '<div class="fs-hp"><label for="fs-hp">Leave this field empty</label><input type="text" id="fs-hp" name="_gotcha" tabindex="-1" autocomplete="off"></div>',
    `<input type="hidden" name="_t" value="${e(String(form.renderedAt))}">`,
    // This page counts its view (the script's beacon, else the page's image), so its posts
    // are in the conversion rate (docs/analytics.md#views).
    VIEWS_COUNTED,
    captcha,
    `<div class="fs-status" id="${ids.status}" role="status" aria-live="polite"></div>`,
    `<button type="submit" class="fs-submit">${e(form.submitLabel)}</button>`,
    '</form>',
    `<div class="fs-success" id="${ids.success}" tabindex="-1" hidden><p class="fs-success-title">${e(form.successTitle)}</p><p class="fs-message">${e(form.successMessage)}</p></div>`,
  );
  return `<div class="fs">${parts.join('')}</div>`;
}

/**
 * The fields, in sections by page when the form has pages (page-sections.ts):
 * one long form without script, steps with it.
 */
function fieldsMarkup(
  form: PublicForm,
  pageHeadingLevel: number,
  prefill: Readonly<Record<string, string>> | undefined,
): string {
  const asked = alwaysAskedFields(form.fields, form.pages);
  const draw = (field: PublicForm['fields'][number]) =>
    fieldMarkup(field, {
      errors: true,
      alwaysAsked: asked.has(field.id),
      filesOff: form.filesOff,
      value: prefill && Object.hasOwn(prefill, field.id) ? prefill[field.id] : undefined,
    });
  return pageGroups(form.fields, form.pages)
    .map(({ page, fields }) =>
      page
        ? `${pageSectionStart(page, pageHeadingLevel)}${fields.map(draw).join('')}${PAGE_SECTION_END}`
        : fields.map(draw).join(''),
    )
    .join('');
}

const LIGHT = {
  bg: '#ffffff',
  fg: '#1f2328',
  muted: '#59636e',
  border: '#818b98',
  field: '#ffffff',
  error: '#cf222e',
};
const DARK = {
  bg: '#0d1117',
  fg: '#e6edf3',
  muted: '#9198a1',
  border: '#6e7681',
  field: '#010409',
  error: '#ff7b72',
};
const DEFAULT_ACCENT = '#2563eb';

const vars = (scheme: typeof LIGHT, dark: boolean) =>
  `--fs-bg:${scheme.bg};--fs-fg:${scheme.fg};--fs-muted:${scheme.muted};--fs-border:${scheme.border};--fs-field:${scheme.field};--fs-error:${scheme.error};color-scheme:${dark ? 'dark' : 'light'}`;

/** Relative luminance of `#rrggbb` (WCAG 2). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Black or white, whichever reads better on the accent (the submit button's text). */
export function textOnAccent(accent: string): string {
  const l = luminance(accent);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}

/**
 * The form's CSS under `scope`: `:root` on the hosted page, `:host` in the
 * embed's shadow root (where `all: initial` keeps the customer's styles out).
 */
export function formCss(form: Pick<PublicForm, 'theme' | 'accent'>, scope: ':root' | ':host') {
  const accent = form.accent ?? DEFAULT_ACCENT;
  const accentVars = `--fs-accent:${accent};--fs-on-accent:${textOnAccent(accent)}`;
  const host = scope === ':host' ? 'all:initial;display:block;' : '';
  const theme =
    form.theme === 'dark'
      ? `${scope}{${host}${vars(DARK, true)};${accentVars}}`
      : form.theme === 'light'
        ? `${scope}{${host}${vars(LIGHT, false)};${accentVars}}`
        : `${scope}{${host}${vars(LIGHT, false)};${accentVars}}@media (prefers-color-scheme:dark){${scope}{${vars(DARK, true)}}}`;
  // In a customer's page the form lines up with the content around it.
  const embedded = scope === ':host' ? '.fs{margin:0;max-width:40rem}' : '';
  return theme + BASE_CSS + embedded;
}

const BASE_CSS = [
  '.fs,.fs *{box-sizing:border-box}',
  '.fs{background:var(--fs-bg);color:var(--fs-fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:36rem;margin:0 auto;padding:24px 20px;border-top:4px solid var(--fs-accent);text-align:left}',
  '.fs-title{font-size:1.5rem;line-height:1.25;margin:0 0 8px;overflow-wrap:anywhere}',
  '.fs-description,.fs-message,.fs-closed{white-space:pre-line;overflow-wrap:anywhere;margin:0 0 16px}',
  '.fs-note,.fs-help{color:var(--fs-muted);font-size:.875rem;margin:0 0 16px}',
  '.fs-help{margin:0 0 6px}',
  '.fs-field{margin:0 0 18px;padding:0;border:0;min-width:0}',
  '.fs-field>label,.fs-group legend{display:block;font-weight:600;margin:0 0 4px;padding:0;overflow-wrap:anywhere}',
  '.fs-req{color:var(--fs-error)}',
  '.fs input:not([type=checkbox]):not([type=radio]),.fs select,.fs textarea{display:block;width:100%;font:inherit;color:var(--fs-fg);background:var(--fs-field);border:1px solid var(--fs-border);border-radius:6px;padding:8px 10px;margin:0}',
  '.fs textarea{resize:vertical;min-height:6rem}',
  '.fs input[type=file]{padding:6px}',
  '.fs-upload{margin:8px 0 0;font-size:.875rem;overflow-wrap:anywhere}',
  '.fs-upload label{display:block;margin:0 0 4px}',
  '.fs-upload progress{display:block;width:100%;height:12px;accent-color:var(--fs-accent)}',
  '.fs-choices{display:flex;flex-direction:column;gap:6px}',
  '.fs-rating{flex-direction:row;flex-wrap:wrap;gap:8px}',
  '.fs-choice{display:flex;align-items:center;gap:8px;overflow-wrap:anywhere}',
  '.fs-choice input{width:1.25rem;height:1.25rem;margin:0;accent-color:var(--fs-accent);flex:none}',
  '.fs-rating .fs-choice{gap:4px}',
  '.fs [aria-invalid=true]{border-color:var(--fs-error)!important;outline:1px solid var(--fs-error)}',
  '.fs-error{color:var(--fs-error);font-size:.875rem;font-weight:600;margin:0 0 6px}',
  '.fs-error:empty{display:none}',
  '.fs-alert{margin:0 0 16px;padding:10px 12px;border:2px solid var(--fs-error);border-radius:6px;color:var(--fs-error);font-weight:600;overflow-wrap:anywhere}',
  '.fs-alert[hidden]{display:none}',
  '.fs-status{margin:0 0 12px}',
  '.fs-status:empty{display:none}',
  '.fs-status.fs-failed{color:var(--fs-error);font-weight:600}',
  '.fs-submit{font:inherit;font-weight:600;color:var(--fs-on-accent);background:var(--fs-accent);border:0;border-radius:6px;padding:10px 20px;cursor:pointer;min-height:44px}',
  '.fs-submit[disabled]{opacity:.7;cursor:progress}',
  '.fs :focus-visible{outline:3px solid var(--fs-accent);outline-offset:2px}',
  '.fs-hp{display:none}',
  '.fs-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}',
  '.fs-page{margin:0;padding:0;border:0}',
  '.fs-page-title,.fs-step{font-size:1.125rem;line-height:1.3;margin:8px 0 12px;overflow-wrap:anywhere}',
  '.fs-step:focus{outline:none}',
  '.fs-nav{display:flex;flex-wrap:wrap;gap:12px;align-items:center}',
  '.fs-back{font:inherit;font-weight:600;color:var(--fs-fg);background:transparent;border:1px solid var(--fs-border);border-radius:6px;padding:10px 20px;cursor:pointer;min-height:44px}',
  '.fs-success-title{font-size:1.25rem;font-weight:600;margin:0 0 8px}',
  '.fs-success:focus{outline:none}',
  '[hidden]{display:none!important}',
].join('');
