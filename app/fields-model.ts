import { fieldPattern, fieldsInput } from '#domain/field-definitions.ts';
import { type GroupDraft, groupDraftOf, groupOf } from './logic-model.ts';
import type { FieldDefinition } from './model.ts';
import { entriesOf, fromApi, lowerFirst, plainWords, type RawIssue } from './problem-sentences.ts';

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
  ['hidden', 'Hidden'],
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
  /** A choice field's options as saved, and the former options it keeps (docs/forms.md#changing-options). */
  savedOptions: readonly string[];
  formerOptions: Readonly<Record<string, string | null>>;
  /** Where the answers of an option taken out go, as chosen: an option now, or '' (kept apart). */
  carry: Readonly<Record<string, string>>;
  /** May be filled from the page's address (`?id=value`); a hidden field always is. */
  prefill: boolean;
  /** Asked only when this holds on earlier answers (docs/forms.md#logic); null: always. */
  showIf: GroupDraft | null;
  /** Must be answered when this holds (besides `required`); null: only when `required`. */
  requiredIf: GroupDraft | null;
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
    savedOptions: [],
    formerOptions: {},
    carry: {},
    prefill: false,
    showIf: null,
    requiredIf: null,
  };
}

/**
 * A saved field as its card holds it. `keyOf` finds the key of the field a
 * rule names (the form's other drafts); without it the rules are left for
 * the caller to read (`draftsOfFields`).
 */
export function draftOfField(
  field: FieldDefinition,
  keyOf?: (id: string) => string | undefined,
): FieldDraft {
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
    savedOptions: field.options ?? [],
    formerOptions: (field.formerOptions as Record<string, string | null> | undefined) ?? {},
    prefill: field.prefill === true,
    showIf: keyOf ? groupDraftOf(field.showIf, keyOf) : null,
    requiredIf: keyOf ? groupDraftOf(field.requiredIf, keyOf) : null,
  };
}

/**
 * The saved fields as drafts, their rules naming one another by key (each
 * draft's key made first, then the rules read with them).
 */
export function draftsOfFields(fields: readonly FieldDefinition[]): FieldDraft[] {
  const drafts = fields.map((field) => draftOfField(field));
  const keys = new Map(drafts.map((draft) => [draft.id, draft.key]));
  const keyOf = (id: string) => keys.get(id);
  return drafts.map((draft, index) => ({
    ...draft,
    showIf: groupDraftOf(fields[index]!.showIf, keyOf),
    requiredIf: groupDraftOf(fields[index]!.requiredIf, keyOf),
  }));
}

/** The id each draft's key stands for now (rules name fields by key). */
export function idsByKey(drafts: readonly FieldDraft[]): (key: string) => string {
  const ids = new Map(drafts.map((draft) => [draft.key, draft.id]));
  return (key) => ids.get(key) ?? key;
}

/** The drafts as the API takes them, their rules naming fields by their ids now. */
export function definitionsOf(drafts: readonly FieldDraft[]): Record<string, unknown>[] {
  const idOf = idsByKey(drafts);
  return drafts.map((draft) => definitionOf(draft, idOf));
}

const numberOrText = (value: string) =>
  value.trim() === '' || !Number.isFinite(Number(value)) ? value : Number(value);

/**
 * A draft as the API takes it: only the properties its type has, and its
 * rules (`idOf` gives the id of the field a rule names by key).
 */
export function definitionOf(
  draft: FieldDraft,
  idOf: (key: string) => string = (key) => key,
): Record<string, unknown> {
  const field: Record<string, unknown> = { id: draft.id, type: draft.type };
  if (draft.label) field.label = draft.label;
  if (draft.required) field.required = true;
  if (draft.placeholder) field.placeholder = draft.placeholder;
  if (draft.helpText) field.helpText = draft.helpText;
  // A file cannot come from an address; a hidden field always does (the flag kept as saved).
  if (draft.prefill && draft.type !== 'file') field.prefill = true;
  if (draft.showIf) field.showIf = groupOf(draft.showIf, idOf);
  if (draft.requiredIf) field.requiredIf = groupOf(draft.requiredIf, idOf);
  const set = (name: string, value: string) => {
    if (value.trim() !== '') field[name] = numberOrText(value);
  };
  switch (draft.type) {
    case 'select':
    case 'radio': {
      // Blank lines skipped: a refused option is named by the line it is on (`entriesOf`).
      const options = entriesOf(draft.options).map((option) => option.text);
      field.options = options;
      const former = formerOptionsOf(draft, options);
      if (Object.keys(former).length > 0) field.formerOptions = former;
      break;
    }
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
    case 'hidden':
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

/** A property's name in the error summary ("Field 2 (Name), pattern: …"). */
const PROPERTY_WORDS: Record<string, string> = {
  id: 'id',
  label: 'label',
  type: 'type',
  required: 'required',
  placeholder: 'placeholder',
  helpText: 'help text',
  options: 'options',
  min: 'smallest',
  max: 'largest',
  minLength: 'shortest answer',
  maxLength: 'longest answer',
  pattern: 'pattern',
  stars: 'stars',
  ratingMin: 'scale start',
  prefill: 'filled from the page address',
};

/** What a collapsed card says of its field: its type in words, and whether it is required. */
export function summaryLine(draft: FieldDraft): string {
  const type = FIELD_TYPES.find(([each]) => each === draft.type)?.[1] ?? draft.type;
  const rules = [
    draft.showIf && 'shown only if…',
    draft.requiredIf && !draft.required && 'required if…',
    draft.prefill && draft.type !== 'hidden' && 'filled from the address',
  ].filter(Boolean);
  return [`${type}, ${draft.required ? 'required' : 'optional'}`, ...rules].join(', ');
}

/** The name of a field on screen: its label, else its id, else its place. */
export const fieldName = (draft: FieldDraft, number: number) =>
  draft.label || draft.id || `field ${number}`;

/** One refused property of one field, in words, at the control it is about. */
export interface FieldProblem {
  /** The field's draft key ('' for the list as a whole). */
  key: string;
  property: string;
  /** The element the summary's link focuses. */
  control: string;
  text: string;
  summary: string;
  /** The refused line of the options (from 1). */
  line?: number;
}

/** The id of the button that adds a field (where a problem of the whole list leads). */
export const ADD_FIELD_ID = 'fields-add';

/** An issue at `path` (within the fields list) in words. */
export function fieldProblemOf(drafts: readonly FieldDraft[], issue: RawIssue): FieldProblem {
  const [index, property = 'id', entry] = issue.path;
  const draft = typeof index === 'number' ? drafts[index] : undefined;
  if (!draft) {
    const text = plainWords(issue, 'fields');
    return {
      key: '',
      property: '',
      control: ADD_FIELD_ID,
      text,
      summary: `Fields: ${lowerFirst(text)}`,
    };
  }
  const name =
    draft.type === 'rating' && property === 'max'
      ? 'stars'
      : draft.type === 'rating' && property === 'min'
        ? 'ratingMin'
        : String(property);
  const number = Number(index) + 1;
  const where = `Field ${number} (${fieldName(draft, number)}), ${PROPERTY_WORDS[name] ?? 'a property'}`;
  const words = plainWords(issue, name === 'options' ? 'options' : 'entries');
  const option =
    name === 'options' && typeof entry === 'number' ? entriesOf(draft.options)[entry] : undefined;
  const base = { key: draft.key, property: name, control: `${draft.key}-${name}` };
  if (!option) return { ...base, text: words, summary: `${where}: ${lowerFirst(words)}` };
  // "“Gold” is listed twice" names the option itself; other words follow its name.
  const said = words.startsWith('“') ? words : `“${option.text}” ${lowerFirst(words)}`;
  return {
    ...base,
    line: option.line,
    text: `Line ${option.line}: ${said}`,
    summary: `${where}, line ${option.line}: ${said}`,
  };
}

/** The definitions, or the problems in words (none when they may be saved). */
export function checkFields(drafts: readonly FieldDraft[]): {
  fields: FieldsInput;
  problems: FieldProblem[];
} {
  const checked = fieldsInput.safeParse(definitionsOf(drafts));
  if (checked.success) return { fields: checked.data, problems: [] };
  return {
    fields: [],
    problems: checked.error.issues.map((issue) => fieldProblemOf(drafts, issue as RawIssue)),
  };
}

/** The problems a 400 named (paths `fields.2.options`), in words. */
export const fieldProblemsFromApi = (
  drafts: readonly FieldDraft[],
  issues: readonly { path: string; code?: string; message: string }[],
) =>
  issues.map((issue) => {
    const raw = fromApi(issue);
    return fieldProblemOf(drafts, {
      ...raw,
      path: raw.path[0] === 'fields' ? raw.path.slice(1) : raw.path,
    });
  });

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

/** What the form's files setting is to the fields screen (docs/forms.md#file-fields). */
export interface FilesState {
  allowUploads: boolean;
  uploadLimitMb: number;
  plan: 'free' | 'pro';
}

/**
 * What a file field's type says while the form does not accept files: on
 * Pro, that saving turns accepting files on (the save sends
 * `allowUploads: true` with the fields); on Free, that it cannot be saved.
 * Nothing once the form accepts files.
 */
export function filesNote(state: FilesState): string | undefined {
  if (state.allowUploads) return undefined;
  return state.plan === 'pro'
    ? `Saving turns on accepting files for this form (Settings, Uploads): visitors attach files of up to ${state.uploadLimitMb} MB.`
    : 'Files need the Pro plan: a form on the Free plan cannot accept files, so a file field cannot be saved.';
}

/** Whether saving these drafts turns accepting files on (Pro, files off, a file field among them). */
export function savingTurnsFilesOn(drafts: readonly FieldDraft[], state: FilesState): boolean {
  return state.plan === 'pro' && !state.allowUploads && drafts.some((d) => d.type === 'file');
}

/** On Free, a file field of a form that does not accept files is refused at its type. */
export function fileFieldProblems(
  drafts: readonly FieldDraft[],
  state: FilesState,
): FieldProblem[] {
  if (state.allowUploads || state.plan === 'pro') return [];
  return drafts.flatMap((draft, index) => {
    if (draft.type !== 'file') return [];
    const text = 'Files need the Pro plan: this form cannot accept files.';
    const where = `Field ${index + 1} (${fieldName(draft, index + 1)}), type`;
    return [
      {
        key: draft.key,
        property: 'type',
        control: `${draft.key}-type`,
        text,
        summary: `${where}: ${lowerFirst(text)}`,
      },
    ];
  });
}

/** How answers meet options: without surrounding spaces, in any case (as the summary matches). */
const folded = (value: string) => value.trim().toLowerCase();

/** A saved option taken out of the field, and where its answers go unless the person chooses. */
export interface TakenOut {
  words: string;
  /** An option now whose answers the old ones join (a rename), or '' (kept apart). */
  goesTo: string;
  /** The option now on the line it was on: the rename it most likely is. */
  guess: string;
}

/**
 * The saved options a choice field's draft no longer has (docs/forms.md#changing-options):
 * each with where its answers go. An option edited in place (another text on
 * its line) is taken for a rename, so its answers join the new words unless
 * the person chooses to keep them apart; one removed is kept apart.
 */
export function optionsTakenOut(draft: FieldDraft): TakenOut[] {
  if (draft.type !== 'select' && draft.type !== 'radio') return [];
  const options = entriesOf(draft.options).map((option) => option.text);
  const now = new Set(options.map(folded));
  const before = new Set(draft.savedOptions.map(folded));
  return draft.savedOptions.flatMap((words, line) => {
    if (now.has(folded(words))) return [];
    const onItsLine = options[line];
    const guess = onItsLine !== undefined && !before.has(folded(onItsLine)) ? onItsLine : '';
    const chosen = draft.carry[words];
    const goesTo =
      chosen !== undefined && (chosen === '' || options.includes(chosen)) ? chosen : guess;
    return [{ words, goesTo, guess }];
  });
}

/**
 * The field's `formerOptions` to send: those saved (a former option that is
 * an option again leaves; one renamed to an option taken out now follows it),
 * and each option taken out now, renamed or kept apart.
 */
export function formerOptionsOf(
  draft: FieldDraft,
  options: readonly string[],
): Record<string, string | null> {
  const now = new Set(options.map(folded));
  const taken = new Map(optionsTakenOut(draft).map((each) => [each.words, each.goesTo || null]));
  const former: Record<string, string | null> = {};
  for (const [words, target] of Object.entries(draft.formerOptions)) {
    if (now.has(folded(words))) continue;
    const leads =
      target !== null && !options.includes(target) ? (taken.get(target) ?? null) : target;
    former[words] = leads;
  }
  for (const [words, goesTo] of taken) former[words] = goesTo;
  return former;
}
