import type { ComponentChildren } from 'preact';

/** A column heading; `{ hidden }` names a column of buttons for screen readers only. */
export type Column = string | { hidden: string };

/** A table of things (members, keys, events, deliveries) that scrolls sideways on a phone. */
export function Listing(props: { columns: readonly Column[]; children: ComponentChildren }) {
  return (
    <div class="scroll-x">
      <table class="listing">
        <thead>
          <tr>
            {props.columns.map((column) =>
              typeof column === 'string' ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.hidden} scope="col">
                  <span class="visually-hidden">{column.hidden}</span>
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/** A refusal or failure of an action, announced where it happened; nothing when empty. */
export function Alert(props: { text: string }) {
  return props.text ? (
    <p class="field-problem" role="alert">
      {props.text}
    </p>
  ) : null;
}
