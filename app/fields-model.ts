import { fieldPattern, fieldsInput } from '#domain/field-definitions.ts';
import type { FieldDefinition } from './model.ts';

type FieldsInput = import('zod/mini').output<typeof fieldsInput>;

/**
 * The fields builder's model: a field as its controls hold it (text for
 * every number, options one a line), turned into the API's definitions and
 * checked with the route's own `fieldsInput` before saving.
 */

export const FIELD_TYPES = [
  ['text', 'Short text'],
  ['textarea', 'Long text'],
  ['email', 'Email'],
  ['number', 'Number'],
  ['select', 'Drop-down list'],
  ['radio', 'One of several (radio)'],
  ['checkbox', 'Tick box'],
  ['rating', 'Rating'],
  ['date', 'Date'],
  ['tel', 'Phone'],
  ['url', 'Web address'],
  ['file', 'File'],
] as const;

export type FieldType = (typeof FIELD_TYPES)[number][0];

export interface FieldDraft {
  /** Stable across edits and moves (keys and ids of the controls). */
  key: string;
  id: string;
  /** The id was typed: it no longer follows the label. */
  idEdited: boolean;
  type: FieldType;
  label: string;
  required: boolean;
  placeholder: string;
  helpText: string;
  options: string;
  min: string;
  max: string;
  minLength: string;
  maxLength: string;
  pattern: string;
  stars: string;
  /** Where a rating starts: '1' (stars, the default) or '0' (a 0–max score, e.g. NPS). */
  ratingMin: '0' | '1';
}

let made = 0;
const newKey = () => `field-${Date.now().toString(36)}-${(made++).toString(36)}`;

/** An id from a label: letters, digits, - and _, starting with a letter (the route's rule). */
export function idFromLabel(label: string): string {
  const words = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const id = /^[a-z]/.test(words) ? words : `field_${words}`;
  return id.slice(0, 64).replace(/_+$/, '') || 'field';
}

export function emptyField(): FieldDraft {
  return {
    key: newKey(),
    id: '',
    idEdited: false,
    type: 'text',
    label: '',
    required: false,
    placeholder: '',
    helpText: '',
    options: '',
    min: '',
    max: '',
    minLength: '',
    maxLength: '',
    pattern: '',
    stars: '5',
    ratingMin: '1',
  };
}

export function draftOfField(field: FieldDefinition): FieldDraft {
  const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
  return {
    ...emptyField(),
    id: field.id,
    idEdited: true,
    type: field.type as FieldType,
    label: text(field.label),
    required: field.required === true,
    placeholder: text(field.placeholder),
    helpText: text(field.helpText),
    options: (field.options ?? []).join('\n'),
    min: text(field.min),
    max: field.type === 'rating' ? '' : text(field.max),
    minLength: text(field.minLength),
    maxLength: text(field.maxLength),
    pattern: text(field.pattern),
    stars: field.type === 'rating' ? text(field.max ?? 5) : '5',
    ratingMin: field.type === 'rating' && field.min === 0 ? '0' : '1',
  };
}

const numberOrText = (value: string) =>
  value.trim() === '' || !Number.isFinite(Number(value)) ? value : Number(value);

/** A draft as the API takes it: only the properties its type has. */
export function definitionOf(draft: FieldDraft): Record<string, unknown> {
  const field: Record<string, unknown> = { id: draft.id, type: draft.type };
  if (draft.label) field.label = draft.label;
  if (draft.required) field.required = true;
  if (draft.placeholder) field.placeholder = draft.placeholder;
  if (draft.helpText) field.helpText = draft.helpText;
  const set = (name: string, value: string) => {
    if (value.trim() !== '') field[name] = numberOrText(value);
  };
  switch (draft.type) {
    case 'select':
    case 'radio':
      field.options = draft.options
        .split('\n')
        .map((option) => option.trim())
        .filter(Boolean);
      break;
    case 'number':
      set('min', draft.min);
      set('max', draft.max);
      break;
    case 'text':
      set('minLength', draft.minLength);
      set('maxLength', draft.maxLength);
      if (draft.pattern !== '') field.pattern = draft.pattern;
      break;
    case 'textarea':
      set('maxLength', draft.maxLength);
      break;
    case 'rating':
      set('max', draft.stars);
      // 1 is the default: left out, as the API stores a rating saved without it.
      if (draft.ratingMin === '0') field.min = 0;
      break;
  }
  return field;
}

/** The definitions, or the problems by field key and property. */
export function checkFields(drafts: readonly FieldDraft[]): {
  fields: FieldsInput;
  problems: Record<string, Record<string, string>>;
} {
  const problems: Record<string, Record<string, string>> = {};
  const checked = fieldsInput.safeParse(drafts.map(definitionOf));
  if (checked.success) return { fields: checked.data, problems };
  for (const issue of checked.error.issues) {
    const [index, property = 'id'] = issue.path;
    const draft = drafts[Number(index)];
    if (!draft) continue;
    const name =
      draft.type === 'rating' && property === 'max'
        ? 'stars'
        : draft.type === 'rating' && property === 'min'
          ? 'ratingMin'
          : String(property);
    const found = problems[draft.key] ?? {};
    found[name] ??= issue.message;
    problems[draft.key] = found;
  }
  return { fields: [], problems };
}

/** Whether `sample` is an answer the pattern takes (whole answer, as the submit check does). */
export function tryPattern(
  pattern: string,
  sample: string,
): 'matches' | 'does not match' | 'invalid' {
  try {
    return fieldPattern(pattern).test(sample) ? 'matches' : 'does not match';
  } catch {
    return 'invalid';
  }
}
