import type { RefObject } from 'preact';
import { useState } from 'preact/hooks';
import { FIELD_PREFIX, FORM_PLACEHOLDERS } from '#domain/email-placeholders.ts';
import { DEFAULT_FIELDS } from '#domain/public-form.ts';
import type { Form } from '../model.ts';
import { Confirm } from './confirm.tsx';

const SAYS: Record<(typeof FORM_PLACEHOLDERS)[number], string> = {
  'form.name': "The form's name",
  'form.id': "The form's id",
  'submission.id': "The submission's id",
  'submission.createdAt': 'When it was received (UTC)',
};

/**
 * The placeholders a form's email texts can use: its own, then one per
 * answer (a form without fields: those of its hosted page) unless answers
 * do not fill them here (`withAnswers` false).
 */
export function placeholderChoices(
  form: Form,
  withAnswers = true,
): { text: string; says: string }[] {
  const fields = withAnswers
    ? (form.fields ?? DEFAULT_FIELDS).filter((field) => field.type !== 'file')
    : [];
  return [
    ...FORM_PLACEHOLDERS.map((name) => ({ text: `{{${name}}}`, says: SAYS[name] })),
    ...fields.map((field) => ({
      text: `{{${FIELD_PREFIX}${field.id}}}`,
      says: `The answer to ${field.label || field.id}`,
    })),
  ];
}

/**
 * Whether answers fill `{{field.…}}` in a text (the auto-reply's, with its
 * switch), and how the switch is turned on from here; absent for texts
 * answers always fill (the notification's subject).
 */
export interface Answers {
  on: boolean;
  /** Absent when this team cannot turn it on (the switch is Pro). */
  turnOn?: () => void;
}

/**
 * The placeholders beside an email setting (docs/delivery.md#placeholders),
 * each a button that types it where the cursor was in the control (at the
 * end when the control was never entered), then puts the cursor after it.
 * Answer placeholders are offered only where answers will fill them: in the
 * auto-reply with its switch off, a button says what turning it on allows
 * and, once confirmed, turns it on (docs/dashboard.md#settings-and-fields).
 */
export function PlaceholderButtons(props: {
  form: Form;
  label: string;
  control: RefObject<HTMLInputElement | HTMLTextAreaElement | null>;
  value: string;
  onChange: (value: string) => void;
  answers?: Answers;
}) {
  const [asking, setAsking] = useState(false);
  const answersOff = props.answers !== undefined && !props.answers.on;
  const insert = (text: string) => {
    const control = props.control.current;
    const entered = control !== null && control.dataset.entered === 'yes';
    const start = entered ? (control.selectionStart ?? props.value.length) : props.value.length;
    const end = entered ? (control.selectionEnd ?? start) : start;
    props.onChange(props.value.slice(0, start) + text + props.value.slice(end));
    if (!control) return;
    // After the new value is rendered: the cursor goes after what was inserted.
    requestAnimationFrame(() => {
      control.focus();
      control.setSelectionRange(start + text.length, start + text.length);
    });
  };
  return (
    <fieldset class="placeholders">
      <legend>
        Insert a placeholder<span class="visually-hidden"> into {props.label}</span>
      </legend>
      {placeholderChoices(props.form, !answersOff).map((choice) => (
        <button
          key={choice.text}
          type="button"
          class="quiet"
          title={choice.says}
          onClick={() => insert(choice.text)}
        >
          {choice.text}
        </button>
      ))}
      {answersOff && props.answers?.turnOn && (
        <button type="button" class="quiet" onClick={() => setAsking(true)}>
          Use answers in the reply…
        </button>
      )}
      {answersOff && (
        <p class="hint">
          Answers (such as {'{{field.name}}'}) are offered once “Let answers fill placeholders in
          the reply” is on: until then they would be sent empty.
        </p>
      )}
      {asking && (
        <Confirm
          title="Let answers fill placeholders in the reply?"
          confirm="Let answers fill them"
          onConfirm={() => {
            setAsking(false);
            props.answers?.turnOn?.();
          }}
          onCancel={() => setAsking(false)}
        >
          <p>
            Each {'{{field.…}}'} in the reply subject and text is then replaced by what the visitor
            typed in that field, so “Hi {'{{field.name}}'},” reads “Hi Ada,”.
          </p>
          <p>
            The visitor also chooses the address the reply goes to: with this on, anyone can have a
            mail with words of their choosing sent in your name to anyone. Save the auto-reply to
            keep it.
          </p>
        </Confirm>
      )}
    </fieldset>
  );
}
