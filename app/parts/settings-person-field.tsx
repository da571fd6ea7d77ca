import type { Form } from '../model.ts';
import {
  controlId,
  type Problem,
  personFieldChoices,
  type Setting,
  type Value,
} from '../settings-model.ts';
import { describedBy, FieldNotes } from './field-notes.tsx';

/**
 * A tick that names one of the form's email fields when on (`unique`:
 * docs/forms.md#one-answer-per-person): ticked, it takes the first field it
 * may name, and a choice among them follows when there are several. With
 * none, the tick stays off and says what it needs.
 */
export function PersonFieldControl(props: {
  setting: Setting;
  value: Value;
  problems: readonly Problem[];
  hint?: string;
  form: Form;
  onChange: (value: Value) => void;
}) {
  const { setting, form } = props;
  const value = props.value as string;
  const id = controlId(setting.key);
  const choiceId = `${id}-field`;
  const choices = personFieldChoices(form);
  // A field saved before it stopped qualifying is still shown, so the owner sees what is set.
  const shown =
    value !== '' && !choices.some((choice) => choice.id === value)
      ? [...choices, { id: value, label: value }]
      : choices;
  const on = value !== '';
  const problem = props.problems.map((each) => each.text).join(' ') || undefined;
  const hint = [
    props.hint,
    !on && choices.length === 0 && 'Needs an email field that is required and always asked.',
    on && shown.length === 1 && `It reads ${shown[0]!.label}.`,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div class="setting check">
      <input
        type="checkbox"
        id={id}
        checked={on}
        disabled={!on && choices.length === 0}
        aria-invalid={problem ? 'true' : undefined}
        aria-describedby={describedBy(id, { hint, problem })}
        onChange={(event) => props.onChange(event.currentTarget.checked ? choices[0]!.id : '')}
      />
      <label for={id}>{setting.label}</label>
      <FieldNotes id={id} hint={hint || undefined} problem={problem} />
      {on && shown.length > 1 && (
        <div class="setting">
          <label for={choiceId}>Email field it reads</label>
          <select
            id={choiceId}
            value={value}
            onChange={(event) => props.onChange(event.currentTarget.value)}
          >
            {shown.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}
