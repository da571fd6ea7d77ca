import type { FieldDefinition } from './model.ts';

/** The hosted page of a form: its endpoint's `/s/` becomes `/f/`. */
export const hostedPageOf = (endpoint: string) => endpoint.replace(/\/s\/([^/]+)$/, '/f/$1');
export const embedScriptOf = (endpoint: string) => endpoint.replace(/\/s\/[^/]+$/, '/embed.js');

const htmlEscape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The embed: one script tag that draws the form on any page. */
export function embedSnippet(endpoint: string, key: string): string {
  return `<script src="${htmlEscape(embedScriptOf(endpoint))}" data-form="${htmlEscape(key)}" async></script>`;
}

const INPUT_TYPES: Record<string, string> = {
  email: 'email',
  number: 'number',
  date: 'date',
  tel: 'tel',
  url: 'url',
  file: 'file',
};

/**
 * A plain HTML form that posts to the endpoint, one input per field (any
 * answers when the form takes any fields), with the honeypot (`_gotcha`,
 * hidden from people) and the fill-time stamp (`_t`, set when the page loads).
 */
export function htmlSnippet(endpoint: string, fields: FieldDefinition[] | null): string {
  const list = fields ?? [
    { id: 'name', type: 'text', label: 'Name' },
    { id: 'email', type: 'email', label: 'Email' },
    { id: 'message', type: 'textarea', label: 'Message' },
  ];
  const hasFile = list.some((field) => field.type === 'file');
  const inputs = list.map((field) => {
    const label = htmlEscape(field.label || field.id);
    const name = htmlEscape(field.id);
    if (field.type === 'textarea')
      return `  <label>${label} <textarea name="${name}"></textarea></label>`;
    if (field.type === 'select' || field.type === 'radio') {
      const options = (field.options ?? [])
        .map((o) => `<option>${htmlEscape(o)}</option>`)
        .join('');
      return `  <label>${label} <select name="${name}">${options}</select></label>`;
    }
    if (field.type === 'checkbox')
      return `  <label><input type="checkbox" name="${name}" value="yes"> ${label}</label>`;
    return `  <label>${label} <input type="${INPUT_TYPES[field.type] ?? 'text'}" name="${name}"></label>`;
  });
  return [
    `<form action="${htmlEscape(endpoint)}" method="POST"${hasFile ? ' enctype="multipart/form-data"' : ''}>`,
    ...inputs,
    '  <!-- Spam protection: leave both as they are. -->',
    '  <input type="text" name="_gotcha" tabindex="-1" autocomplete="off" style="display:none">',
    '  <input type="hidden" name="_t" value="">',
    '  <button type="submit">Send</button>',
    '</form>',
    "<script>document.querySelectorAll('input[name=_t]').forEach(function (i) { i.value = Date.now(); });</script>",
  ].join('\n');
}
