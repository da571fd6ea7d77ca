import type { RefObject } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { isTyping } from './typing.ts';

export interface InboxKeyActions {
  onOpen: (row: number) => void;
  onRead: (row: number) => void;
  onStar: (row: number) => void;
  /** `!`: to spam (or out of it, in the spam folder); the selection when there is one. */
  onSpam: (row: number | undefined) => void;
  /** `#`: delete after a question; the selection when there is one. */
  onDelete: (row: number | undefined) => void;
  onSelect: (row: number) => void;
  onClearSelection: () => void;
  /** `z`: puts the last spam, read or star change back, when it can be. */
  onUndo: () => void;
  onHelp: () => void;
}

export interface InboxKeys {
  /** The row keys act on: the one moved to, or the one whose link or box has focus. */
  focused: number | undefined;
  /** Puts focus on row `row` (kept in the list's bounds) once the rows next render. */
  focusAfterChange: (row: number) => void;
  /** Puts focus on row `row` now (kept in the list's bounds). */
  focusRow: (row: number) => void;
}

const rowLinks = (rows: RefObject<HTMLTableSectionElement | null>) =>
  rows.current?.querySelectorAll<HTMLAnchorElement>('a.preview') ?? [];

/**
 * The inbox's keys, as mail clients have them (docs/dashboard.md#inbox-keys):
 * j/k move, o or Enter open, e read/unread, s star, x select, ! spam,
 * # delete, z undo, Escape clears the selection, ? the list of keys. Ignored while
 * typing (`isTyping`) and while a dialog is open (`enabled`). Moving focuses
 * the row's link, so the screen reader and the browser follow; when a
 * dialog closes, focus goes back to the row it was on.
 */
export function useInboxKeys(
  options: InboxKeyActions & {
    rows: RefObject<HTMLTableSectionElement | null>;
    count: number;
    /** The rows shown: a new list is when a focus asked for after a change lands. */
    items: unknown;
    enabled: boolean;
    hasSelection: boolean;
  },
): InboxKeys {
  const [focused, setFocused] = useState<number>();
  // One listener for the screen's life, reading the row, the callbacks and `enabled` of
  // now, not of its last effect: keys pressed faster than effects run (j then s, or j
  // right after a dialog closes) act on the state just rendered.
  const current = useRef({ focused, options, wanted: undefined as number | undefined });
  current.current.options = options;
  const { rows } = options;

  const focusRow = useCallback(
    (to: number) => {
      const { count } = current.current.options;
      if (count === 0) return;
      const row = Math.max(0, Math.min(count - 1, to));
      current.current.focused = row;
      setFocused(row);
      rowLinks(rows)[row]?.focus();
    },
    [rows],
  );

  useEffect(() => {
    const handle = (event: KeyboardEvent) => {
      const { options } = current.current;
      if (!options.enabled) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      // A key another part took (the Actions menu's Escape), or pressed in that open menu.
      if (event.defaultPrevented || (event.target as Element).closest?.('[role="menu"]')) return;
      const at = current.current.focused ?? -1;
      const row = at >= 0 && at < options.count ? at : undefined;
      // ! and # act on the selection when there is one, else on the focused row.
      const chosen = options.hasSelection ? undefined : row;
      const either = options.hasSelection || row !== undefined;
      switch (event.key) {
        case 'j':
          focusRow(at + 1);
          break;
        case 'k':
          focusRow(at <= 0 ? 0 : at - 1);
          break;
        case 'o':
          if (row !== undefined) options.onOpen(row);
          break;
        case 'e':
          if (row !== undefined) options.onRead(row);
          break;
        case 's':
          if (row !== undefined) options.onStar(row);
          break;
        case 'x':
          if (row !== undefined) options.onSelect(row);
          break;
        case '!':
          if (either) options.onSpam(chosen);
          break;
        case '#':
          if (either) options.onDelete(chosen);
          break;
        case 'Escape':
          if (!options.hasSelection) return;
          options.onClearSelection();
          break;
        case 'z':
          options.onUndo();
          break;
        case '?':
          options.onHelp();
          break;
        default:
          return;
      }
      event.preventDefault();
    };
    // A row reached by Tab or by a click on its box is the row keys act on.
    const follow = (event: FocusEvent) => {
      const row = (event.target as Element | null)?.closest?.('tr');
      const body = current.current.options.rows.current;
      if (!row || !body || row.parentElement !== body) return;
      const index = [...body.children].indexOf(row);
      current.current.focused = index;
      setFocused(index);
    };
    document.addEventListener('keydown', handle);
    document.addEventListener('focusin', follow);
    return () => {
      document.removeEventListener('keydown', handle);
      document.removeEventListener('focusin', follow);
    };
  }, [focusRow]);

  // A dialog closed: focus goes back to the row it was on (the dialog left nothing focused).
  const wasEnabled = useRef(options.enabled);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the dialog closing alone
  useEffect(() => {
    if (options.enabled && !wasEnabled.current && current.current.focused !== undefined) {
      focusRow(current.current.focused);
    }
    wasEnabled.current = options.enabled;
  }, [options.enabled]);

  // After spam or delete the rows are read again: the row now at the acted one's place is next.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on a new list of rows
  useEffect(() => {
    const { wanted } = current.current;
    if (wanted === undefined) return;
    current.current.wanted = undefined;
    focusRow(wanted);
  }, [options.items]);

  return {
    focused,
    focusAfterChange: (row) => {
      current.current.wanted = row;
    },
    focusRow,
  };
}

/** The inbox's keys and what each does, as its help dialog lists them. */
export const INBOX_KEYS: [string, string][] = [
  ['j / k', 'Next / previous submission'],
  ['o or Enter', 'Open it'],
  ['e', 'Mark read or unread'],
  ['s', 'Star or unstar'],
  ['x', 'Select or unselect'],
  ['!', 'Spam, or not spam in the spam folder (the selected ones, if any)'],
  ['#', 'Delete (the selected ones, if any)'],
  ['z', 'Undo the last spam, read or star change'],
  ['Escape', 'Clear the selection'],
  ['?', 'This list'],
];

/** Waiting for confirmation, where only Delete applies: the keys that still do something. */
export const PENDING_KEYS: [string, string][] = INBOX_KEYS.filter(
  ([key]) => !['e', 's', '!', 'z'].includes(key),
);
