import { useEffect, useRef, useState } from 'preact/hooks';
import { isTyping } from './typing.ts';

/** What each key of the submission page does: docs/dashboard.md#keys-on-a-submission. */
export interface SubmissionKeyActions {
  next: () => void;
  previous: () => void;
  back: () => void;
  star: () => void;
  read: () => void;
  unread: () => void;
  /** Opens the reply email, when the submission names an address to reply to. */
  reply: (() => void) | undefined;
  spam: () => void;
  remove: () => void;
  undo: () => void;
  help: () => void;
}

/**
 * The submission page's keys, as the inbox has them: j/k the next or
 * previous submission of the folder, u or Escape back to the inbox, s star,
 * r read, U (Shift+u) unread, R (Shift+r) reply, ! spam, # delete, z undo,
 * ? the list of keys. They stand aside while typing, while a
 * dialog is open (`enabled` false) and for a key another part already took
 * (the menu's Escape).
 */
export function useSubmissionKeys(actions: SubmissionKeyActions, enabled: boolean): void {
  // One listener for the page's life, reading the actions of the last render: a key
  // pressed right after the page changed acts on the submission now shown.
  const current = useRef({ actions, enabled });
  current.current = { actions, enabled };
  useEffect(() => {
    const handle = (event: KeyboardEvent) => {
      const { actions, enabled } = current.current;
      if (!enabled || event.defaultPrevented) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      const act: Record<string, (() => void) | undefined> = {
        j: actions.next,
        k: actions.previous,
        u: actions.back,
        Escape: actions.back,
        s: actions.star,
        r: actions.read,
        U: actions.unread,
        R: actions.reply,
        '!': actions.spam,
        '#': actions.remove,
        z: actions.undo,
        '?': actions.help,
      };
      const action = Object.hasOwn(act, event.key) ? act[event.key] : undefined;
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', handle);
    return () => document.removeEventListener('keydown', handle);
  }, []);
}

/**
 * A dialog's open state that gives focus back where it was when the dialog
 * closes (the button or link pressed, or the page when a key opened it).
 */
export function useReturningFocus<T>() {
  const [open, setOpen] = useState<T>();
  const from = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (open !== undefined || !from.current) return;
    if (from.current.isConnected) from.current.focus();
    from.current = null;
  }, [open]);
  return {
    open,
    show: (value: T) => {
      const active = document.activeElement;
      from.current = active instanceof HTMLElement && active !== document.body ? active : null;
      setOpen(value);
    },
    close: () => setOpen(undefined),
  };
}

/** The submission page's keys and what each does, as the help dialog lists them. */
export const SUBMISSION_KEYS: [string, string][] = [
  ['j', 'Next (older) submission'],
  ['k', 'Previous (newer) submission'],
  ['u or Escape', 'Back to the inbox, on this submission’s row'],
  ['s', 'Star or unstar'],
  ['r', 'Mark read'],
  ['U (Shift+u)', 'Mark unread'],
  ['R (Shift+r)', 'Reply by email (when it names an address)'],
  ['!', 'Spam or not spam, then the next one'],
  ['#', 'Delete (after a question), then the next one'],
  ['z', 'Undo the last star, read or spam change'],
  ['?', 'This list'],
];

/** One waiting for confirmation takes no star, read or spam: the keys that still do something. */
export const PENDING_SUBMISSION_KEYS: [string, string][] = SUBMISSION_KEYS.filter(
  ([key]) => !['s', 'r', 'U (Shift+u)', '!', 'z'].includes(key),
);
