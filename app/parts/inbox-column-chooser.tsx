import { useEffect, useRef } from 'preact/hooks';
import { type AnswerColumn, movedColumn, toggledColumn } from '../inbox-columns.ts';

/**
 * The table view's columns: every question with a box to show it, the
 * shown ones first in their order with Move up and Move down (buttons, so
 * the keyboard and screen readers can), and a way back to the form's
 * first questions. A disclosure (`details`), closed until asked for.
 * Each change applies at once and is kept (docs/dashboard.md#the-table-view).
 */
export function ColumnChooser(props: {
  all: readonly AnswerColumn[];
  shown: readonly AnswerColumn[];
  chosen: boolean;
  onChange: (columns: string[] | undefined) => void;
}) {
  const shownIds = props.shown.map((column) => column.id);
  const listed = [...props.shown, ...props.all.filter((column) => !shownIds.includes(column.id))];
  // A moved column's button is drawn at its new place: focus follows it there.
  const focusNext = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = undefined;
  });
  const move = (column: AnswerColumn, from: number, by: -1 | 1) => {
    const to = from + by;
    // At the top (or the bottom) its button that way is disabled: the other one takes focus.
    const blocked = by === -1 ? to === 0 : to === shownIds.length - 1;
    const way = (by === -1) !== blocked ? 'up' : 'down';
    focusNext.current = `column-${to}-${way}`;
    props.onChange(movedColumn(shownIds, column.id, by));
  };
  return (
    <details class="column-chooser">
      <summary>Columns</summary>
      <fieldset>
        <legend>Columns shown, in this order</legend>
        <ul>
          {listed.map((column, index) => {
            const on = index < shownIds.length;
            return (
              <li key={column.id}>
                <label class="choice">
                  <input
                    type="checkbox"
                    checked={on}
                    onChange={() => props.onChange(toggledColumn(shownIds, column.id))}
                  />{' '}
                  {column.label}
                </label>
                {on && (
                  <span class="moves">
                    <button
                      type="button"
                      class="quiet"
                      id={`column-${index}-up`}
                      disabled={index === 0}
                      aria-label={`Move up: ${column.label}`}
                      onClick={() => move(column, index, -1)}
                    >
                      Move up
                    </button>
                    <button
                      type="button"
                      class="quiet"
                      id={`column-${index}-down`}
                      disabled={index === shownIds.length - 1}
                      aria-label={`Move down: ${column.label}`}
                      onClick={() => move(column, index, 1)}
                    >
                      Move down
                    </button>
                  </span>
                )}
              </li>
            );
          })}
        </ul>
        {props.chosen && (
          <button type="button" class="quiet" onClick={() => props.onChange(undefined)}>
            Back to the form's first questions
          </button>
        )}
      </fieldset>
    </details>
  );
}
