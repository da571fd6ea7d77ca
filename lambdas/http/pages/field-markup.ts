import { ratingScale } from '#domain/field-rules.ts';
import type { FieldDefinition } from '#domain/form-model.ts';
import { escapeHtml } from '#domain/html.ts';

/**
 * One field's HTML, for every place that draws a form: the hosted page and
 * the embed (form-markup.ts) and the HTML form of the dashboard's Share
 * screen (form-snippet.ts). A module of its own so the dashboard's first
 * screens take the fields without the page's title, styles and script
 * parts. Every setting goes through `escapeHtml`; no inline `style`.
 */

const e = escapeHtml;

/** Element ids of a field's parts (field ids are `[A-Za-z][A-Za-z0-9_-]*`, unique in the form). */
export const ids = {
  control: (fieldId: string) => `fs-f-${fieldId}`,
  /** A page's section (forms with pages: page-sections.ts). */
  page: (pageId: string) => `fs-pg-${pageId}`,
  help: (fieldId: string) => `fs-h-${fieldId}`,
  /** The note of a file field the form cannot take files for now. */
  off: (fieldId: string) => `fs-o-${fieldId}`,
  error: (fieldId: string) => `fs-e-${fieldId}`,
  /** The progress bar of a file being uploaded (drawn by the script). */
  progress: (fieldId: string, index: number) => `fs-p-${fieldId}-${index}`,
  status: 'fs-status',
  /** A refusal of the whole post (too many posts, a closed form), shown above the form. */
  alert: 'fs-alert',
  title: 'fs-title',
  success: 'fs-success',
};

/** Browsers fill these in from the visitor's profile. */
function autocompleteOf(field: FieldDefinition): string | undefined {
  switch (field.type) {
    case 'email':
      return 'email';
    case 'tel':
      return 'tel';
    case 'url':
      return 'url';
    case 'text':
      return /^(full[_-]?)?name$/i.test(field.id) ? 'name' : undefined;
    default:
      return undefined;
  }
}

export function attributes(values: Record<string, string | number | boolean | undefined>): string {
  return Object.entries(values)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([name, value]) => (value === true ? ` ${name}` : ` ${name}="${e(String(value))}"`))
    .join('');
}

/**
 * The label, with the star of a required field. A field required only when
 * its `requiredIf` holds carries the star hidden: the page's script shows it
 * while the walk says so (client/form-steps.ts).
 */
function labelText(field: FieldDefinition): string {
  const label = field.label?.trim() ? field.label : field.id;
  const marker = field.required
    ? '<span class="fs-req" aria-hidden="true"> *</span>'
    : field.requiredIf
      ? '<span class="fs-req" aria-hidden="true" hidden> *</span>'
      : '';
  return `${e(label)}${marker}`;
}

/**
 * How a field is drawn: with the error line the script fills (the hosted
 * page, the embed), or without it (the HTML form pasted into a site, which
 * has no script to fill it: the browser's own checks speak there); and
 * whether every walk asks it (`alwaysAsked`, the default). A required field
 * the form's logic may skip (its own `showIf`, or a page a rule may jump
 * past) carries no `required` attribute: without script the browser would
 * hold back a post for a question the person was never asked, and the
 * server's walk decides anyway (docs/forms.md#the-walk).
 */
export interface FieldOptions {
  errors: boolean;
  alwaysAsked?: boolean;
  /**
   * The value the field starts with: filled from the page's URL
   * (`prefillValues`, docs/forms.md#hidden-fields-and-prefill), escaped like
   * every setting.
   */
  value?: string;
  /**
   * The form cannot take files now (uploads off, or a team no longer on Pro):
   * a file field is still drawn, disabled and saying so, never left out
   * (docs/forms.md#file-fields).
   */
  filesOff?: boolean;
}

/** What a file field says while the form cannot take files. */
export const FILES_OFF_NOTE = 'This form cannot receive files at the moment.';

const WITH_ERRORS: FieldOptions = { errors: true };

/** help text id (when any) then error id: what a control's `aria-describedby` names. */
function describedBy(field: FieldDefinition, options: FieldOptions): string | undefined {
  const named = [
    field.helpText?.trim() ? ids.help(field.id) : undefined,
    options.errors ? ids.error(field.id) : undefined,
  ].filter(Boolean);
  return named.length > 0 ? named.join(' ') : undefined;
}

function helpAndError(field: FieldDefinition, options: FieldOptions): string {
  const help = field.helpText?.trim()
    ? `<p class="fs-help" id="${ids.help(field.id)}">${e(field.helpText)}</p>`
    : '';
  return options.errors ? `${help}<p class="fs-error" id="${ids.error(field.id)}"></p>` : help;
}

const INPUT_TYPES: Partial<Record<FieldDefinition['type'], string>> = {
  text: 'text',
  email: 'email',
  number: 'number',
  date: 'date',
  tel: 'tel',
  url: 'url',
  file: 'file',
};

/** Whether the control carries HTML's `required`: required, and asked on every walk. */
const requiredAttribute = (field: FieldDefinition, options: FieldOptions) =>
  field.required === true && options.alwaysAsked !== false;

/** The options a joined checkbox answer (`a,b`) names: each option found whole between commas. */
function checkedOptions(value: string, options: readonly string[]): Set<string> {
  const parts = `,${value},`;
  return new Set(options.filter((option) => parts.includes(`,${option},`)));
}

/** A group of radios or checkboxes: a fieldset whose legend is the label. */
function choiceGroup(
  field: FieldDefinition,
  options: FieldOptions,
  type: 'radio' | 'checkbox',
  choices: { value: string; label: string; ariaLabel?: string; checked?: boolean }[],
  extraClass = '',
): string {
  const inputs = choices
    .map((choice, index) => {
      const id = `${ids.control(field.id)}-${index}`;
      return `<div class="fs-choice"><input${attributes({
        type,
        id,
        name: field.id,
        value: choice.value,
        // A required checkbox group is checked by the script (HTML cannot say "at least one").
        required: type === 'radio' && requiredAttribute(field, options),
        checked: choice.checked === true,
        'aria-label': choice.ariaLabel,
      })}><label for="${id}">${e(choice.label)}</label></div>`;
    })
    .join('');
  return `<fieldset${attributes({
    class: 'fs-field fs-group',
    id: ids.control(field.id),
    'aria-describedby': describedBy(field, options),
    'data-fs-field': field.id,
  })}><legend>${labelText(field)}</legend>${helpAndError(field, options)}<div class="fs-choices${extraClass}">${inputs}</div></fieldset>`;
}

/**
 * One field's markup: the browser's own checks from the field rules
 * (`required`, `min`/`max`, `minlength`/`maxlength`, `pattern`), radios as
 * radios, a select's blank first choice, a rating as radios `min` to `max`.
 * The hosted page, the embed and the dashboard's HTML form all draw it here.
 */
export function fieldMarkup(field: FieldDefinition, options: FieldOptions = WITH_ERRORS): string {
  if (field.type === 'file' && options.filesOff) return fileFieldOff(field, options);
  const id = ids.control(field.id);
  const common = {
    id,
    name: field.id,
    required: requiredAttribute(field, options),
    'aria-describedby': describedBy(field, options),
  };
  const box = attributes({ class: 'fs-field', 'data-fs-field': field.id });
  const { value } = options;
  switch (field.type) {
    case 'hidden':
      // Never drawn: its value comes from the page's URL (prefill) or the site's own HTML.
      return `<input${attributes({ type: 'hidden', id, name: field.id, value: value ?? '', 'data-fs-field': field.id })}>`;
    case 'radio':
      return choiceGroup(
        field,
        options,
        'radio',
        (field.options ?? []).map((option) => ({
          value: option,
          label: option,
          checked: option === value,
        })),
      );
    case 'rating': {
      const { min, max } = ratingScale(field);
      return choiceGroup(
        field,
        options,
        'radio',
        Array.from({ length: max - min + 1 }, (_, i) => ({
          value: String(min + i),
          label: String(min + i),
          ariaLabel: `${min + i} of ${max}`,
          checked: value?.trim() === String(min + i),
        })),
        ' fs-rating',
      );
    }
    case 'checkbox':
      if (field.options?.length) {
        return choiceGroup(
          field,
          options,
          'checkbox',
          field.options.map((option) => ({
            value: option,
            label: option,
            checked: value !== undefined && checkedOptions(value, field.options ?? []).has(option),
          })),
        );
      }
      // One tick: its label is the question.
      return `<div class="fs-field fs-single" data-fs-field="${e(field.id)}"><div class="fs-choice"><input${attributes(
        {
          ...common,
          type: 'checkbox',
          value: 'yes',
          checked: value !== undefined && value.trim() !== '',
        },
      )}><label for="${id}">${labelText(field)}</label></div>${helpAndError(field, options)}</div>`;
    case 'select': {
      const choices = (field.options ?? [])
        // Without a value attribute an option sends its text with white space collapsed:
        // half the bytes of a long list, for every option that collapses to itself.
        .map((option) => {
          const selected = option === value ? ' selected' : '';
          return option.replace(/[\t\n\f\r ]+/g, ' ').trim() === option
            ? `<option${selected}>${e(option)}</option>`
            : `<option value="${e(option)}"${selected}>${e(option)}</option>`;
        })
        .join('');
      return `<div${box}><label for="${id}">${labelText(field)}</label>${helpAndError(field, options)}<select${attributes(common)}><option value="">${e(field.placeholder?.trim() ? field.placeholder : 'Choose…')}</option>${choices}</select></div>`;
    }
    case 'textarea':
      return `<div${box}><label for="${id}">${labelText(field)}</label>${helpAndError(field, options)}<textarea${attributes(
        {
          ...common,
          rows: 5,
          maxlength: field.maxLength,
          placeholder: field.placeholder,
        },
      )}>${e(value ?? '')}</textarea></div>`;
    default: {
      const type = INPUT_TYPES[field.type] ?? 'text';
      const input = `<input${attributes({
        ...common,
        type,
        autocomplete: autocompleteOf(field),
        placeholder: type === 'file' ? undefined : field.placeholder,
        value: type === 'file' ? undefined : value,
        minlength: field.minLength,
        maxlength: field.maxLength,
        pattern: field.pattern,
        min: field.min,
        max: field.max,
        step: type === 'number' ? 'any' : undefined,
        inputmode: type === 'number' ? 'decimal' : undefined,
      })}>`;
      return `<div${box}><label for="${id}">${labelText(field)}</label>${helpAndError(field, options)}${input}</div>`;
    }
  }
}

/** A file field the form cannot take files for: labelled, disabled, and saying why. */
function fileFieldOff(field: FieldDefinition, options: FieldOptions): string {
  const shown = { ...field, required: false };
  const described = [describedBy(shown, options), ids.off(field.id)].filter(Boolean).join(' ');
  const input = `<input${attributes({
    id: ids.control(field.id),
    name: field.id,
    type: 'file',
    disabled: true,
    'aria-describedby': described,
  })}>`;
  const note = `<p class="fs-help fs-off" id="${ids.off(field.id)}">${e(FILES_OFF_NOTE)}</p>`;
  return `<div class="fs-field"><label for="${ids.control(field.id)}">${labelText(shown)}</label>${helpAndError(shown, options)}${note}${input}</div>`;
}
