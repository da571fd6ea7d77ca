import type { FormPage } from '#domain/form-logic.ts';
import type { FieldDefinition } from '#domain/form-model.ts';
import { escapeHtml } from '#domain/html.ts';
import { attributes, ids } from './field-markup.ts';

/**
 * A form's pages in HTML (docs/uploads-and-pages.md#steps), for every place
 * that draws a form with pages: the hosted page and the embed
 * (form-markup.ts) and the Share screen's HTML form (form-snippet.ts). Each
 * page is a `<section data-fs-page>` holding its fields in its order, under
 * its title when it has one. Without script that is one long form, every
 * page in sight; the page's script (client/form-steps.ts) turns the sections
 * into steps. Which fields a walk asks is the evaluator's to say
 * (domain/form-logic.ts): this module only reads where the fields stand.
 */

/** The fields of one section: a page's (in its order), or all of a form without pages. */
export interface PageGroup {
  page: FormPage | null;
  fields: FieldDefinition[];
}

/**
 * The fields by page, in the pages' order; fields on no page (a form saved
 * before its pages were checked) come last, on none. A form without pages
 * is one group without a page.
 */
export function pageGroups(
  fields: readonly FieldDefinition[],
  pages: readonly FormPage[] | null | undefined,
): PageGroup[] {
  if (!pages || pages.length === 0) return [{ page: null, fields: [...fields] }];
  const byId = new Map(fields.map((field) => [field.id, field]));
  const placed = new Set<string>();
  const groups: PageGroup[] = pages.map((page) => ({
    page,
    fields: page.fields.flatMap((id) => {
      const field = byId.get(id);
      if (!field || placed.has(id)) return [];
      placed.add(id);
      return [field];
    }),
  }));
  const loose = fields.filter((field) => !placed.has(field.id));
  if (loose.length > 0) groups.push({ page: null, fields: loose });
  return groups;
}

/**
 * The fields every walk asks, whatever the answers: no `showIf`, and on a
 * page no rule of an earlier page can jump past. Only these may carry HTML's
 * `required` (field-markup.ts).
 */
export function alwaysAskedFields(
  fields: readonly FieldDefinition[],
  pages: readonly FormPage[] | null | undefined,
): Set<string> {
  const skippable = new Set<string>();
  const list = pages ?? [];
  list.forEach((page, index) => {
    for (const rule of page.next ?? []) {
      const target =
        rule.goTo === 'end' ? list.length : list.findIndex((each) => each.id === rule.goTo);
      for (let skipped = index + 1; skipped < target; skipped++) {
        for (const id of list[skipped]!.fields) skippable.add(id);
      }
    }
  });
  return new Set(
    fields.filter((field) => !field.showIf && !skippable.has(field.id)).map((field) => field.id),
  );
}

/** The opening of a page's section: its title as a heading of `level` when it has one. */
export function pageSectionStart(page: FormPage, level: number): string {
  const title = page.title?.trim();
  const titleId = `${ids.page(page.id)}-title`;
  const heading = title
    ? `<h${level} class="fs-page-title" id="${titleId}">${escapeHtml(title)}</h${level}>`
    : '';
  return `<section${attributes({
    class: 'fs-page',
    id: ids.page(page.id),
    'data-fs-page': page.id,
    'aria-labelledby': title ? titleId : undefined,
  })}>${heading}`;
}

export const PAGE_SECTION_END = '</section>';
