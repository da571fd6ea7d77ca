import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import {
  FIELD_TYPES,
  type FieldDraft,
  type FieldType,
  optionsTakenOut,
  tryPattern,
} from '../fields-model.ts';
import { entriesOf } from '../problem-sentences.ts';
import { describedBy, FieldNotes } from './field-notes.tsx';
import { FieldInput } from './fields-input.tsx';
import { FieldLogic, type LogicContext } from './fields-logic.tsx';

type Change = (patch: Partial<FieldDraft>) => void;

/**
 * The properties of one field: those every field has, then those of its type
 * (options, number bounds, a rating's scale, text lengths and pattern).
 */
export function FieldEditor(props: {
  draft: FieldDraft;
  problems: Readonly<Record<string, string>>;
  /** What a file field says while the form does not accept files. */
  filesNote?: string;
  logic: LogicContext;
  onChange: Change;
}) {
  const { draft, problems, onChange } = props;
  const typeId = `${draft.key}-type`;
  const typeNotes = {
    hint:
      draft.type === 'file'
        ? props.filesNote
        : draft.type === 'hidden'
          ? `Never shown: filled from the page address (?${draft.id || 'id'}=…) or by your site's own hidden input.`
          : undefined,
    problem: problems.type,
  };
  const prefillId = `${draft.key}-prefill`;
  const input = (
    property: keyof FieldDraft,
    label: string,
    options: { type?: 'number'; multiline?: boolean; hint?: string } = {},
  ) => (
    <FieldInput
      draft={draft}
      property={property}
      label={label}
      problem={problems[property]}
      onChange={onChange}
      {...options}
    />
  );
  return (
    <div class="field-grid">
      {input('label', 'Label')}
      {input('id', 'Id (the answer’s name in posts)', {
        hint: draft.idEdited ? undefined : 'Follows the label until you change it.',
      })}
      <div class="setting">
        <label for={typeId}>Type</label>
        <select
          id={typeId}
          aria-describedby={describedBy(typeId, typeNotes)}
          aria-invalid={problems.type ? true : undefined}
          value={draft.type}
          onChange={(event) => onChange({ type: event.currentTarget.value as FieldType })}
        >
          {FIELD_TYPES.map(([type, label]) => (
            <option key={type} value={type}>
              {label}
            </option>
          ))}
        </select>
        <FieldNotes id={typeId} {...typeNotes} />
      </div>
      <div class="setting check">
        <input
          id={`${draft.key}-required`}
          type="checkbox"
          checked={draft.required}
          onChange={(event) => onChange({ required: event.currentTarget.checked })}
        />
        <label for={`${draft.key}-required`}>Required</label>
      </div>
      {draft.type !== 'file' && draft.type !== 'hidden' && (
        <div class="setting check wide">
          <input
            id={prefillId}
            type="checkbox"
            checked={draft.prefill}
            aria-describedby={`${prefillId}-hint`}
            onChange={(event) => onChange({ prefill: event.currentTarget.checked })}
          />
          <label for={prefillId}>Can be filled from the page address</label>
          <p id={`${prefillId}-hint`} class="hint">
            A link ending in ?{draft.id || 'id'}=… fills it in on the hosted page and the embed.
          </p>
        </div>
      )}
      {input('helpText', 'Help text')}
      {input('placeholder', 'Placeholder')}
      {(draft.type === 'select' || draft.type === 'radio') && (
        <>
          {input('options', 'Options, one a line', { multiline: true })}
          <TakenOutAnswers draft={draft} onChange={onChange} />
        </>
      )}
      {draft.type === 'number' && (
        <>
          {input('min', 'Smallest', { type: 'number' })}
          {input('max', 'Largest', { type: 'number' })}
        </>
      )}
      {draft.type === 'rating' && (
        <RatingScale draft={draft} problems={problems} onChange={onChange} input={input} />
      )}
      {(draft.type === 'text' || draft.type === 'textarea' || draft.type === 'hidden') &&
        input('maxLength', 'Longest answer (characters)', { type: 'number' })}
      {draft.type === 'text' && (
        <>
          {input('minLength', 'Shortest answer (characters)', { type: 'number' })}
          {input('pattern', 'Pattern (a regular expression the whole answer must match)')}
          {draft.pattern && <PatternTry draft={draft} />}
        </>
      )}
      <FieldLogic draft={draft} logic={props.logic} problems={problems} onChange={onChange} />
    </div>
  );
}

/** Where a rating starts (stars from 1, or a score from 0) and its top. */
function RatingScale(props: {
  draft: FieldDraft;
  problems: Readonly<Record<string, string>>;
  onChange: Change;
  input: (
    property: keyof FieldDraft,
    label: string,
    options: { type: 'number' },
  ) => ComponentChildren;
}) {
  const { draft } = props;
  return (
    <>
      <div class="setting">
        <label for={`${draft.key}-ratingMin`}>Scale starts at</label>
        <select
          id={`${draft.key}-ratingMin`}
          value={draft.ratingMin}
          onChange={(event) =>
            props.onChange({ ratingMin: event.currentTarget.value as '0' | '1' })
          }
        >
          <option value="1">1 (stars)</option>
          <option value="0">0 (a score, like 0 to 10 for NPS)</option>
        </select>
      </div>
      {props.input(
        'stars',
        draft.ratingMin === '0' ? 'Highest score (3 to 10)' : 'Stars (3 to 10)',
        { type: 'number' },
      )}
    </>
  );
}

/** A box that says whether a sample answer passes the pattern, as the submit check would. */
function PatternTry(props: { draft: FieldDraft }) {
  const { draft } = props;
  const [sample, setSample] = useState('');
  const verdict = sample ? tryPattern(draft.pattern, sample) : undefined;
  return (
    <div class="setting">
      <label for={`${draft.key}-try`}>Try the pattern on</label>
      <input
        id={`${draft.key}-try`}
        value={sample}
        onInput={(event) => setSample(event.currentTarget.value)}
      />
      <p role="status" class="hint">
        {verdict === 'invalid'
          ? 'The pattern is not a valid regular expression.'
          : verdict
            ? `“${sample}” ${verdict}.`
            : ''}
      </p>
    </div>
  );
}

/**
 * Where the answers of each option taken out go (docs/forms.md#changing-options):
 * past answers keep the words they were given in, and the summary counts them
 * under the option chosen here (a rename, the default for an option edited in
 * place) or apart, by their words.
 */
function TakenOutAnswers(props: { draft: FieldDraft; onChange: Change }) {
  const { draft } = props;
  const taken = optionsTakenOut(draft);
  if (taken.length === 0) return null;
  const options = entriesOf(draft.options).map((option) => option.text);
  const hintId = `${draft.key}-carry-hint`;
  return (
    <fieldset class="setting carry" aria-describedby={hintId}>
      <legend>Answers given to options you took out</legend>
      <p id={hintId} class="hint">
        Past answers keep their words. The summary counts them under the option you pick here (as a
        rename does), or apart, under their old words.
      </p>
      {taken.map((each, index) => {
        const id = `${draft.key}-carry-${index}`;
        return (
          <div key={each.words} class="setting">
            <label for={id}>Answers of “{each.words}”</label>
            <select
              id={id}
              value={each.goesTo}
              onChange={(event) =>
                props.onChange({
                  carry: { ...draft.carry, [each.words]: event.currentTarget.value },
                })
              }
            >
              {options.map((option) => (
                <option key={option} value={option}>
                  Count as “{option}”
                </option>
              ))}
              <option value="">Keep apart, as “{each.words}”</option>
            </select>
          </div>
        );
      })}
    </fieldset>
  );
}
