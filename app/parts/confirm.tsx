import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A modal dialog (the native one: focus kept inside, Escape dismisses).
 * Escape's cancel is taken over so the screen closes it by unmounting; a
 * close the browser forces anyway (a second Escape) dismisses it too; the
 * focus goes back to what opened it.
 */
export function Modal(props: {
  titleId: string;
  title: string;
  onDismiss: () => void;
  children: ComponentChildren;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    // Closed by unmounting, not by close(), the browser gives the focus back to nothing:
    // it goes back to what opened the dialog, unless the screen has placed it since.
    const opener = document.activeElement;
    const shown = dialog.current;
    shown?.showModal();
    return () => {
      const now = document.activeElement;
      const lost = !now || now === document.body || shown?.contains(now);
      if (lost && opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={props.titleId}
      onCancel={(event) => {
        event.preventDefault();
        props.onDismiss();
      }}
      onClose={props.onDismiss}
    >
      <h2 id={props.titleId}>{props.title}</h2>
      {props.children}
    </dialog>
  );
}

/** A question before something that cannot be undone: Cancel, or the action named. */
export function Confirm(props: {
  title: string;
  children: ComponentChildren;
  confirm: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal titleId="confirm-title" title={props.title} onDismiss={props.onCancel}>
      {props.children}
      <div class="actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={props.onConfirm}>
          {props.confirm}
        </button>
      </div>
    </Modal>
  );
}

/** A screen's keys and what each does, with one way out: Close (or Escape). */
export function KeysDialog(props: { keys: readonly [string, string][]; onClose: () => void }) {
  return (
    <Modal titleId="keys-title" title="Keyboard shortcuts" onDismiss={props.onClose}>
      <table class="keys">
        <tbody>
          {props.keys.map(([key, what]) => (
            <tr key={key}>
              <th scope="row">
                <kbd>{key}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="actions">
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
