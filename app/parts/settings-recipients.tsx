import { useEffect, useRef } from 'preact/hooks';
import { controlId, MAX_NOTIFY_CC, type Problem, type Setting } from '../settings-model.ts';
import { describedBy, FieldNotes } from './field-notes.tsx';

/**
 * The other people a notification goes to: one address a row, each with its
 * Remove, and Add while there is room (up to 4 besides the first address).
 * A Free team may empty the list but not add to it.
 */
export function RecipientList(props: {
  setting: Setting;
  rows: readonly string[];
  problems: readonly Problem[];
  locked: boolean;
  hint?: string;
  onChange: (rows: readonly string[]) => void;
}) {
  const { setting, rows, problems } = props;
  const added = useRef(false);
  // A row just added takes the keyboard.
  useEffect(() => {
    if (!added.current) return;
    added.current = false;
    document.getElementById(controlId(setting.key, rows.length - 1))?.focus();
  });
  const id = controlId(setting.key);
  const whole = problems.filter((problem) => problem.line === undefined);
  const wholeText = whole.map((problem) => problem.text).join(' ') || undefined;
  const full = rows.length >= MAX_NOTIFY_CC;
  return (
    <fieldset
      class="setting recipients"
      aria-describedby={describedBy(id, { hint: props.hint, problem: wholeText })}
    >
      <legend>{setting.label}</legend>
      <FieldNotes id={id} hint={props.hint} problem={wholeText} />
      <ol>
        {rows.map((row, index) => {
          const rowId = controlId(setting.key, index);
          const problem = problems.find((each) => each.line === index + 1)?.text;
          return (
            <li key={index}>
              <label class="recipient-label" for={rowId}>
                Address {index + 1}
              </label>
              <input
                id={rowId}
                type="email"
                autoComplete="off"
                value={row}
                aria-invalid={problem ? 'true' : undefined}
                aria-describedby={describedBy(rowId, { problem })}
                onInput={(event) =>
                  props.onChange(
                    rows.map((each, at) => (at === index ? event.currentTarget.value : each)),
                  )
                }
              />
              <button
                type="button"
                class="quiet"
                aria-label={`Remove address ${index + 1}`}
                onClick={() => props.onChange(rows.filter((_, at) => at !== index))}
              >
                Remove
              </button>
              <FieldNotes id={rowId} problem={problem} />
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        class="quiet"
        id={`${id}-add`}
        disabled={full || props.locked}
        onClick={() => {
          added.current = true;
          props.onChange([...rows, '']);
        }}
      >
        {full ? `Add an address (${MAX_NOTIFY_CC} at most)` : 'Add an address'}
      </button>
    </fieldset>
  );
}
