import type { ComponentChildren, RefObject } from 'preact';
import { useRef } from 'preact/hooks';
import type { Form } from '../model.ts';
import { controlId, type Problem, type Setting, type Value } from '../settings-model.ts';
import { describedBy, FieldNotes } from './field-notes.tsx';
import { type Answers, PlaceholderButtons } from './placeholder-buttons.tsx';
import { PersonFieldControl } from './settings-person-field.tsx';
import { RecipientList } from './settings-recipients.tsx';

const INPUT_TYPES: Partial<
  Record<Setting['kind'], 'text' | 'email' | 'url' | 'number' | 'datetime-local' | 'password'>
> = {
  text: 'text',
  email: 'email',
  url: 'url',
  number: 'number',
  datetime: 'datetime-local',
  secret: 'password',
};

const zone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** What is said below a control besides its problem: the plan, its help, its state. */
function hintOf(setting: Setting, value: Value, locked: boolean, form: Form): string | undefined {
  const notes = [
    locked && 'Needs the Pro plan: a Free team can clear it but not set it.',
    setting.hint,
    setting.describe?.(value as string),
    setting.kind === 'secret' &&
      (form.captchaSecretKeySet
        ? 'A secret is saved; type a new one to replace it.'
        : 'None saved.'),
    setting.kind === 'datetime' &&
      (value
        ? `In your time zone (${zone()}); UTC ${new Date(value as string).toISOString().replace('.000Z', 'Z')}.`
        : `In your time zone (${zone()}).`),
  ].filter(Boolean) as string[];
  return notes.length > 0 ? notes.join(' ') : undefined;
}

/** One setting: its label, control, help and problem, and placeholders where it takes them. */
export function Control(props: {
  setting: Setting;
  value: Value;
  problems: readonly Problem[];
  locked: boolean;
  form: Form;
  /** The auto-reply's texts: whether answers fill `{{field.…}}` now, and how to turn it on. */
  answers?: Answers;
  onChange: (value: Value) => void;
}) {
  const { setting, value, locked, form } = props;
  const field = useRef<HTMLInputElement | HTMLTextAreaElement | null>(null);
  const hint = hintOf(setting, value, locked, form);
  if (setting.kind === 'recipients') {
    return (
      <RecipientList
        setting={setting}
        rows={value as readonly string[]}
        problems={props.problems}
        locked={locked}
        hint={hint}
        onChange={props.onChange}
      />
    );
  }
  if (setting.kind === 'personField') {
    return (
      <PersonFieldControl
        setting={setting}
        value={value}
        problems={props.problems}
        hint={hint}
        form={form}
        onChange={props.onChange}
      />
    );
  }
  const id = controlId(setting.key);
  const problem = props.problems.map((each) => each.text).join(' ') || undefined;
  const disabled = locked && !(setting.kind === 'checkbox' ? value === true : value !== '');
  const control = (
    <ControlInput
      setting={setting}
      value={value}
      disabled={disabled}
      field={field}
      invalid={problem !== undefined}
      describedBy={describedBy(id, { hint, problem })}
      onChange={props.onChange}
    />
  );
  const label = <label for={id}>{setting.label}</label>;
  return (
    <div class={`setting ${setting.kind === 'checkbox' ? 'check' : ''}`}>
      {setting.kind === 'checkbox' ? (
        <>
          {control}
          {label}
        </>
      ) : (
        <>
          {label}
          {control}
        </>
      )}
      <FieldNotes id={id} hint={hint} problem={problem} />
      {setting.placeholders && !disabled && (
        <PlaceholderButtons
          form={form}
          label={setting.label}
          control={field}
          value={value as string}
          onChange={props.onChange}
          answers={props.answers}
        />
      )}
    </div>
  );
}

/** The input, select or text area a setting's kind calls for. */
function ControlInput(props: {
  setting: Setting;
  value: Value;
  disabled: boolean;
  invalid: boolean;
  describedBy?: string;
  field: RefObject<HTMLInputElement | HTMLTextAreaElement | null>;
  onChange: (value: Value) => void;
}) {
  const { setting, value } = props;
  const keep = (element: HTMLInputElement | HTMLTextAreaElement | null) => {
    props.field.current = element;
  };
  const common = {
    id: controlId(setting.key),
    // Placeholder buttons insert where the cursor is once the control has been entered.
    onFocus: (event: { currentTarget: HTMLElement }) => {
      event.currentTarget.dataset.entered = 'yes';
    },
    disabled: props.disabled,
    'aria-invalid': props.invalid ? ('true' as const) : undefined,
    'aria-describedby': props.describedBy,
  };
  const text = (event: { currentTarget: { value: string } }) =>
    props.onChange(event.currentTarget.value);
  let control: ComponentChildren;
  switch (setting.kind) {
    case 'checkbox':
      control = (
        <input
          type="checkbox"
          {...common}
          checked={value as boolean}
          onChange={(event) => props.onChange(event.currentTarget.checked)}
        />
      );
      break;
    case 'select':
      control = (
        <select {...common} value={value as string} onChange={text}>
          {setting.options!.map(([option, label]) => (
            <option key={option} value={option}>
              {label}
            </option>
          ))}
        </select>
      );
      break;
    case 'textarea':
    case 'lines':
    case 'countries':
      control = (
        <textarea
          {...common}
          ref={keep}
          rows={setting.kind === 'textarea' ? 5 : 4}
          value={value as string}
          onInput={text}
        />
      );
      break;
    default:
      control = (
        <input
          {...common}
          ref={keep}
          // Preact types each input type apart; the table above names the right one.
          type={INPUT_TYPES[setting.kind] as 'text'}
          autoComplete={setting.kind === 'secret' ? 'new-password' : undefined}
          value={value as string}
          onInput={text}
        />
      );
  }
  return control;
}
