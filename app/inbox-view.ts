import { useCallback, useState } from 'preact/hooks';

/**
 * How a person reads a form's inbox: as rows or as a table, and the table's
 * columns. Kept per form in this browser (localStorage), not as a form
 * setting (docs/dashboard.md#the-table-view): it is a reader's preference,
 * so two members of a team each keep their own columns, choosing them
 * writes nothing to the form (no PATCH, no audit event, no save bar), and
 * the API and its contract do not grow for a view.
 */

export type InboxViewKind = 'rows' | 'table';

export interface InboxView {
  view: InboxViewKind;
  /** The questions shown as columns, in order; undefined until the person chooses. */
  columns?: string[];
}

const PREFIX = 'form-service:inbox-view:';
/** Bounds on what is read back: a form has at most 30 fields, answers at most 50 names a post. */
const MAX_COLUMNS = 100;
const MAX_NAME = 200;

/** What is kept for `formId`, checked: anything unreadable is the default (rows, no choice). */
export function readInboxView(storage: Pick<Storage, 'getItem'>, formId: string): InboxView {
  try {
    const kept = JSON.parse(storage.getItem(PREFIX + formId) ?? 'null') as unknown;
    if (typeof kept !== 'object' || kept === null) return { view: 'rows' };
    const { view, columns } = kept as Record<string, unknown>;
    const names =
      Array.isArray(columns) &&
      columns.every((name) => typeof name === 'string' && name.length <= MAX_NAME)
        ? [...new Set(columns as string[])].slice(0, MAX_COLUMNS)
        : undefined;
    return { view: view === 'table' ? 'table' : 'rows', ...(names ? { columns: names } : {}) };
  } catch {
    return { view: 'rows' };
  }
}

export function saveInboxView(
  storage: Pick<Storage, 'setItem'>,
  formId: string,
  view: InboxView,
): void {
  try {
    storage.setItem(PREFIX + formId, JSON.stringify(view));
  } catch {
    // Storage full or refused (a private window): the choice holds for this visit only.
  }
}

/** The inbox view of `formId` as kept, and its setter, which keeps what it is given. */
export function useInboxView(formId: string): [InboxView, (view: InboxView) => void] {
  const [shown, setShown] = useState<{ formId: string; view: InboxView }>(() => ({
    formId,
    view: readInboxView(localStorage, formId),
  }));
  const current = shown.formId === formId ? shown.view : readInboxView(localStorage, formId);
  const set = useCallback(
    (view: InboxView) => {
      saveInboxView(localStorage, formId, view);
      setShown({ formId, view });
    },
    [formId],
  );
  return [current, set];
}
