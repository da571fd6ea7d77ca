import type { ComponentChildren } from 'preact';

/**
 * A section's one Save, kept in sight at the bottom of the window while its
 * section scrolls past (CSS `position: sticky`), with the section's state:
 * "Unsaved changes", then what the save did.
 */
export function SaveBar(props: {
  label: string;
  unsaved: boolean;
  busy: boolean;
  message: string;
  /** Other buttons of the section (Add a field), before Save. */
  children?: ComponentChildren;
}) {
  return (
    <div class="save-bar">
      {props.children}
      <button type="submit" disabled={props.busy || !props.unsaved}>
        {props.label}
      </button>
      {props.unsaved && <span class="unsaved">Unsaved changes</span>}
      <span role="status">{props.message}</span>
    </div>
  );
}
