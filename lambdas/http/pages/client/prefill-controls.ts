/// <reference lib="dom" />
/**
 * Prefill in the browser (docs/forms.md#hidden-fields-and-prefill): the values of
 * `prefillValues` (domain/prefill.ts: which fields, which values pass)
 * set on the drawn controls. Where the values come from: the script tag's
 * `data-prefill-<field id>` (an attribute's name is lower case: matched to
 * the id in any case), else the page's own query string (`?utm_source=…`,
 * the id exactly). The tag wins: the site's author chose it for this page,
 * a link's query string is anyone's; for the same reason a hidden input the
 * site filled itself (`<input type="hidden" value="…">` in its pasted form)
 * keeps its value whatever the query says.
 */
import type { FieldDefinition } from '#domain/form-model.ts';
import { prefillValues } from '#domain/prefill.ts';

const PREFIX = 'data-prefill-';

/** What fills each field id: the tag's attribute, else every value the query string gives it. */
export function prefillSource(
  script: HTMLScriptElement | null,
  search: string,
  fields: readonly FieldDefinition[],
  element: HTMLFormElement,
): Record<string, string | string[]> {
  const siteFilled = (id: string) =>
    [...element.elements].some(
      (control) =>
        control instanceof HTMLInputElement &&
        control.type === 'hidden' &&
        control.name === id &&
        control.defaultValue !== '',
    );
  const tagged = new Map<string, string>();
  for (const name of script?.getAttributeNames() ?? []) {
    if (name.startsWith(PREFIX)) tagged.set(name.slice(PREFIX.length), script!.getAttribute(name)!);
  }
  const query = new URLSearchParams(search);
  const source: Record<string, string | string[]> = {};
  for (const { id } of fields) {
    const value = tagged.get(id.toLowerCase()) ?? (siteFilled(id) ? [] : query.getAll(id));
    // Field ids start with a letter: never `__proto__`.
    if (value.length > 0) source[id] = value;
  }
  return source;
}

/** Fills the form's prefillable fields from `valueOf`; returns the ids filled. */
export function prefill(
  element: HTMLFormElement,
  fields: readonly FieldDefinition[],
  source: Readonly<Record<string, string | string[]>>,
): string[] {
  const values = prefillValues(fields, source);
  for (const [id, value] of Object.entries(values)) {
    const field = fields.find((each) => each.id === id)!;
    const controls = [...element.elements].filter(
      (control) => (control as HTMLInputElement).name === id,
    ) as (HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement)[];
    // A list of ticked options arrives joined by `,`; an option may hold a comma itself.
    const ticked = `,${value},`;
    for (const control of controls) {
      if (control instanceof HTMLInputElement && control.type === 'radio') {
        control.checked = control.value === value;
      } else if (control instanceof HTMLInputElement && control.type === 'checkbox') {
        control.checked = field.options?.length
          ? ticked.includes(`,${control.value},`)
          : value === 'yes';
      } else control.value = value;
    }
  }
  return Object.keys(values);
}
