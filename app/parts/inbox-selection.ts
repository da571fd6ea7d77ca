import { useState } from 'preact/hooks';

export interface Selection {
  ids: Set<string>;
  /** Every submission of the folder as of the list, not only those shown. */
  allMatching: boolean;
  has: (id: string) => boolean;
  /** The row ticked or unticked last (by pointer or `x`), until the selection is set otherwise. */
  lastToggled: number | undefined;
  /** Ticks or unticks row `index`; with `range`, every row from the last one ticked. */
  toggle: (index: number, range: boolean) => void;
  setPage: (on: boolean) => void;
  setAllMatching: () => void;
  clear: () => void;
}

/** The rows ticked among `items` (ids of rows no longer shown stay until cleared). */
export function useSelection(items: readonly { id: string }[]): Selection {
  const [ids, setIds] = useState<Set<string>>(new Set());
  const [allMatching, setAll] = useState(false);
  const [anchor, setAnchor] = useState<number>();
  return {
    ids,
    allMatching,
    has: (id) => allMatching || ids.has(id),
    lastToggled: anchor,
    toggle: (index, range) => {
      const next = new Set(ids);
      const on = !next.has(items[index]!.id);
      const [from, to] =
        range && anchor !== undefined
          ? anchor < index
            ? [anchor, index]
            : [index, anchor]
          : [index, index];
      for (let i = from; i <= to; i++) {
        const id = items[i]?.id;
        if (id && on) next.add(id);
        else if (id) next.delete(id);
      }
      setAnchor(index);
      setIds(next);
      setAll(false);
    },
    setPage: (on) => {
      setIds(on ? new Set(items.map((item) => item.id)) : new Set());
      setAll(false);
    },
    setAllMatching: () => setAll(true),
    clear: () => {
      setIds(new Set());
      setAll(false);
    },
  };
}
