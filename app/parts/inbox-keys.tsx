import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Confirm } from './confirm.tsx';
import { isTyping } from './typing.ts';

/**
 * The inbox's keys, as mail clients have them: j/k move, o or Enter open,
 * e read/unread, s star, x select, # delete, ? the list of keys. Ignored
 * while typing in a field. Moving focuses the row's link, so the screen
 * reader and the browser follow. Returns the focused row.
 */
export function useInboxKeys(options: {
  rows: RefObject<HTMLTableSectionElement | null>;
  count: number;
  onOpen: (row: number) => void;
  onRead: (row: number) => void;
  onStar: (row: number) => void;
  onDelete: (row: number) => void;
  onSelect: (row: number) => void;
  onHelp: () => void;
  enabled: boolean;
}): number | undefined {
  const [focused, setFocused] = useState<number>();
  // One listener for the screen's life, reading the row, the callbacks and `enabled` of
  // now, not of its last effect: keys pressed faster than effects run (j then s, or j
  // right after a dialog closes) act on the state just rendered.
  const current = useRef({ focused, options });
  current.current.options = options;
  useEffect(() => {
    const handle = (event: KeyboardEvent) => {
      const { options } = current.current;
      if (!options.enabled) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      const move = (to: number) => {
        const row = Math.max(0, Math.min(options.count - 1, to));
        current.current.focused = row;
        setFocused(row);
        options.rows.current?.querySelectorAll<HTMLAnchorElement>('a.preview')[row]?.focus();
      };
      const at = current.current.focused ?? -1;
      const acting = at >= 0 && at < options.count;
      switch (event.key) {
        case 'j':
          move(at + 1);
          break;
        case 'k':
          move(at <= 0 ? 0 : at - 1);
          break;
        case 'o':
          if (acting) options.onOpen(at);
          break;
        case 'e':
          if (acting) options.onRead(at);
          break;
        case 's':
          if (acting) options.onStar(at);
          break;
        case 'x':
          if (acting) options.onSelect(at);
          break;
        case '#':
          if (acting) options.onDelete(at);
          break;
        case '?':
          options.onHelp();
          break;
        default:
          return;
      }
      event.preventDefault();
    };
    document.addEventListener('keydown', handle);
    return () => document.removeEventListener('keydown', handle);
  }, []);
  return focused;
}

const KEYS: [string, string][] = [
  ['j / k', 'Next / previous submission'],
  ['o or Enter', 'Open it'],
  ['e', 'Mark read or unread'],
  ['s', 'Star or unstar'],
  ['x', 'Select or unselect'],
  ['#', 'Delete'],
  ['?', 'This list'],
];

export function KeyHelp(props: { onClose: () => void }) {
  return (
    <Confirm
      title="Keyboard shortcuts"
      confirm="Close"
      onConfirm={props.onClose}
      onCancel={props.onClose}
    >
      <table class="keys">
        <tbody>
          {KEYS.map(([key, what]) => (
            <tr key={key}>
              <th scope="row">
                <kbd>{key}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Confirm>
  );
}
