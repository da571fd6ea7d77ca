import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Action } from '../data.ts';
import { type Change, FOLDER_NAMES } from '../inbox-model.ts';
import type { Folder } from '../model.ts';
import { Outcome } from './feedback.tsx';
import type { Triage } from './inbox-triage.ts';

/** The selection's triage buttons, in their order: spam's folder offers Not spam instead of Spam. */
function triageButtons(folder: Folder): [string, Change][] {
  return [
    ['Mark read', { read: true }],
    ['Mark unread', { read: false }],
    ['Star', { starred: true }],
    ['Unstar', { starred: false }],
    folder === 'spam' ? ['Not spam', { isSpam: false }] : ['Spam', { isSpam: true }],
  ];
}

/**
 * The bar of a selection's actions and of their outcome. It floats over the
 * foot of the screen (docs/dashboard.md#the-inbox): selecting a row, or an
 * action's notice, never moves a row under the pointer.
 */
export function BulkBar(props: {
  action: Action;
  triage: Triage;
  folder: Folder;
  /** The folder's size, when every submission of it as of the list may be selected. */
  folderTotal?: number;
  shown: number;
}) {
  const { triage, folder } = props;
  const { selection } = triage;
  const busy = props.action.busy;
  const count = selection.allMatching ? (props.folderTotal ?? 0) : selection.ids.size;
  const bar = useRef<HTMLDivElement>(null);
  // Its height, for the page's room under the rows and the scroll padding that keeps a focused
  // or ticked row clear of it: on a phone it wraps to two or three lines.
  useLayoutEffect(() => {
    const root = document.documentElement.style;
    root.setProperty('--triage-bar-height', `${bar.current?.offsetHeight ?? 0}px`);
  });
  useLayoutEffect(
    () => () => document.documentElement.style.removeProperty('--triage-bar-height'),
    [],
  );
  return (
    <div class="triage-bar" ref={bar}>
      <Outcome action={props.action} />
      {count > 0 && (
        <fieldset class="bulk">
          <legend>{count.toLocaleString()} selected</legend>
          {props.folderTotal !== undefined &&
            !selection.allMatching &&
            selection.ids.size === props.shown &&
            props.folderTotal > props.shown && (
              <button type="button" class="quiet" onClick={selection.setAllMatching}>
                Select all {props.folderTotal.toLocaleString()} in {FOLDER_NAMES[folder]}
              </button>
            )}
          {/* Waiting for confirmation takes no triage: only Delete (docs/dashboard.md#confirm-by-email). */}
          {folder !== 'pending' &&
            triageButtons(folder).map(([label, change]) => (
              <button
                key={label}
                type="button"
                disabled={busy}
                onClick={() => triage.change(change)}
              >
                {label}
              </button>
            ))}
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() => triage.askDelete(undefined)}
          >
            Delete
          </button>
          <button type="button" class="quiet" onClick={selection.clear}>
            Clear selection
          </button>
        </fieldset>
      )}
    </div>
  );
}
