import { htmlFormSnippet } from '#http/pages/form-snippet.ts';
import type { FieldDefinition, Form } from './model.ts';

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

/**
 * The HTML form of the Share screen: drawn by the hosted page's own field
 * markup (`lambdas/http/pages/form-snippet.ts`), with the form's button label.
 */
export function htmlSnippet(
  endpoint: string,
  fields: FieldDefinition[] | null,
  design: { submitLabel?: unknown } = {},
  /** The form cannot take files now: a file field is drawn disabled, saying so. */
  filesOff = false,
  pages: Form['pages'] = null,
): string {
  const label = typeof design.submitLabel === 'string' ? design.submitLabel.trim() : '';
  return htmlFormSnippet(endpoint, fields, label || undefined, { filesOff, pages });
}
