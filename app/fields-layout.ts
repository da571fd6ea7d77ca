import { END, type FormPage } from '#domain/form-logic.ts';
import { definitionOf, draftsOfFields, type FieldDraft, idsByKey } from './fields-model.ts';
import {
  type LogicFieldView,
  newLogicKey,
  newPageId,
  type PageDraft,
  pageDraftOf,
  pageOf,
} from './logic-model.ts';
import type { Form } from './model.ts';

/**
 * The fields screen's list: fields and page breaks in the walk's order
 * (docs/dashboard.md#logic). Without pages it holds fields only; with pages
 * it starts with one, each page holding the fields up to the next. Moving a
 * field past a break moves it to that page.
 */
export type Entry = FieldDraft | PageDraft;

export const isPage = (entry: Entry): entry is PageDraft => (entry as PageDraft).kind === 'page';
export const fieldsIn = (entries: readonly Entry[]): FieldDraft[] =>
  entries.filter((entry): entry is FieldDraft => !isPage(entry));
export const pagesIn = (entries: readonly Entry[]): PageDraft[] => entries.filter(isPage);

/** The saved form as the list: its pages in order, each followed by its fields. */
export function entriesOfForm(form: Pick<Form, 'fields' | 'pages'>): Entry[] {
  const drafts = draftsOfFields(form.fields ?? []);
  const pages = form.pages ?? [];
  if (pages.length === 0) return drafts;
  const byId = new Map(drafts.map((draft) => [draft.id, draft]));
  const pageKeys = new Map(pages.map((page) => [page.id, newLogicKey('page')]));
  const entries: Entry[] = [];
  const placed = new Set<string>();
  for (const page of pages) {
    entries.push(
      pageDraftOf(
        page,
        (id) => byId.get(id)?.key,
        (id) => pageKeys.get(id),
        pageKeys.get(page.id)!,
      ),
    );
    for (const id of page.fields) {
      const draft = byId.get(id);
      if (draft && !placed.has(id)) entries.push(draft);
      placed.add(id);
    }
  }
  // A field on no page cannot be saved, but it is never dropped: it shows on the last page.
  for (const draft of drafts) if (!placed.has(draft.id)) entries.push(draft);
  return entries;
}

/** The list as the API takes it: `fields` in the walk's order, and `pages` (null: none). */
export function formOfEntries(entries: readonly Entry[]): {
  fields: Record<string, unknown>[];
  pages: FormPage[] | null;
} {
  const drafts = fieldsIn(entries);
  const idOf = idsByKey(drafts);
  const pageIds = new Map(pagesIn(entries).map((page) => [page.key, page.id]));
  const pages: FormPage[] = [];
  let page: PageDraft | undefined;
  let ids: string[] = [];
  const close = () => {
    if (page) pages.push(pageOf(page, ids, idOf, (key) => pageIds.get(key)));
  };
  for (const entry of entries) {
    if (isPage(entry)) {
      close();
      page = entry;
      ids = [];
    } else ids.push(entry.id);
  }
  close();
  return {
    fields: drafts.map((draft) => definitionOf(draft, idOf)),
    pages: pages.length > 0 ? pages : null,
  };
}

/** What a rule's menus show of a field. */
export const fieldView = (draft: FieldDraft, number: number): LogicFieldView => ({
  key: draft.key,
  id: draft.id,
  type: draft.type,
  name: draft.label || draft.id || `field ${number}`,
  options:
    draft.type === 'select' || draft.type === 'radio'
      ? draft.options
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
      : [],
});

/** Every field as the menus show it, by key. */
export function fieldViews(entries: readonly Entry[]): Map<string, LogicFieldView> {
  return new Map(fieldsIn(entries).map((draft, index) => [draft.key, fieldView(draft, index + 1)]));
}

/** The fields before the entry at `index` (a rule may only name those). */
export function fieldsBefore(entries: readonly Entry[], index: number): LogicFieldView[] {
  const views = fieldViews(entries);
  return fieldsIn(entries.slice(0, index)).map((draft) => views.get(draft.key)!);
}

/** The index of the entry after the last field of the page at `index` (its rules read them all). */
export function pageEnd(entries: readonly Entry[], index: number): number {
  let end = index + 1;
  while (end < entries.length && !isPage(entries[end]!)) end++;
  return end;
}

/** The pages after the page at `index`: where its rules may go. */
export const pagesAfter = (entries: readonly Entry[], index: number) =>
  pagesIn(entries.slice(index + 1));

/** A page break added: the first one splits the form into a page of its fields and a new one. */
export function withPageBreak(entries: readonly Entry[]): { entries: Entry[]; added: PageDraft } {
  const taken = pagesIn(entries).map((page) => page.id);
  const make = (): PageDraft => {
    const id = newPageId(taken);
    taken.push(id);
    return { kind: 'page', key: newLogicKey('page'), id, title: '', next: [] };
  };
  if (pagesIn(entries).length === 0) {
    const first = make();
    const added = make();
    return { entries: [first, ...entries, added], added };
  }
  const added = make();
  return { entries: [...entries, added], added };
}

/**
 * A page break taken out: its fields join the page before. Rules that went
 * to it go to the end instead of naming a page that is gone. The first page
 * goes only when it is the only one (the form is then one page again).
 */
export function withoutPage(entries: readonly Entry[], key: string): Entry[] {
  const left = entries.filter((entry) => entry.key !== key);
  return left.map((entry) =>
    isPage(entry) && entry.next.some((rule) => rule.goTo === key)
      ? {
          ...entry,
          next: entry.next.map((rule) => (rule.goTo === key ? { ...rule, goTo: END } : rule)),
        }
      : entry,
  );
}

/** Whether the entry at `index` may move up (never above the first page's break). */
export const canMoveUp = (entries: readonly Entry[], index: number) =>
  index > 0 && !(index === 1 && isPage(entries[0]!));

/**
 * A field taken out: the rules that named it keep its saved id, so the save
 * refuses them at the rule, naming the field ("which this change removes").
 */
export function withoutField(entries: readonly Entry[], key: string): Entry[] {
  const gone = fieldsIn(entries).find((draft) => draft.key === key);
  const mark = `?${gone?.id ?? ''}`;
  const rename = <T extends { conditions: { field: string }[] }>(group: T): T => ({
    ...group,
    conditions: group.conditions.map((each) =>
      each.field === key ? { ...each, field: mark } : each,
    ),
  });
  return entries
    .filter((entry) => entry.key !== key)
    .map((entry) => {
      if (isPage(entry)) {
        return { ...entry, next: entry.next.map((rule) => ({ ...rule, when: rename(rule.when) })) };
      }
      return {
        ...entry,
        showIf: entry.showIf && rename(entry.showIf),
        requiredIf: entry.requiredIf && rename(entry.requiredIf),
      };
    });
}
