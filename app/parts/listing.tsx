import { type ComponentChildren, Fragment } from 'preact';

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

/**
 * Text that may wrap after `@`, `.` and `:` (an email address, a host, an IP
 * address) as well as at its spaces, and nowhere inside a word: a narrow
 * column breaks "bo@example.com" as "bo@ / example.com", never "exam / ple".
 */
export function Breakable(props: { text: string }) {
  const parts = props.text.split(/(?<=[@.:])(?=\S)/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
