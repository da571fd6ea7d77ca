import type { RefObject } from 'preact';
import { FIELD_PREFIX, FORM_PLACEHOLDERS } from '#domain/email-placeholders.ts';
import { DEFAULT_FIELDS } from '#domain/public-form.ts';
import type { Form } from '../model.ts';

const SAYS: Record<(typeof FORM_PLACEHOLDERS)[number], string> = {
  'form.name': "The form's name",
  'form.id': "The form's id",
  'submission.id': "The submission's id",
  'submission.createdAt': 'When it was received (UTC)',
};

/**
 * The placeholders a form's email texts can use: its own, then one per
 * answer (a form without fields: those of its hosted page).
 */
export function placeholderChoices(form: Form): { text: string; says: string }[] {
  const fields = (form.fields ?? DEFAULT_FIELDS).filter((field) => field.type !== 'file');
  return [
    ...FORM_PLACEHOLDERS.map((name) => ({ text: `{{${name}}}`, says: SAYS[name] })),
    ...fields.map((field) => ({
      text: `{{${FIELD_PREFIX}${field.id}}}`,
      says: `The answer to ${field.label || field.id}`,
    })),
  ];
}

/**
 * The placeholders beside an email setting (docs/delivery.md#placeholders),
 * each a button that types it where the cursor was in the control (at the
 * end when the control was never entered), then puts the cursor after it.
 */
export function PlaceholderButtons(props: {
  form: Form;
  label: string;
  control: RefObject<HTMLInputElement | HTMLTextAreaElement | null>;
  value: string;
  onChange: (value: string) => void;
  /** Why answer placeholders will be empty here, if they will. */
  answersEmpty?: string;
}) {
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
      {placeholderChoices(props.form).map((choice) => (
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
      {props.answersEmpty && <p class="hint">{props.answersEmpty}</p>}
    </fieldset>
  );
}
