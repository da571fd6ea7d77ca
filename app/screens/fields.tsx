import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call } from '../api.ts';
import {
  checkFields,
  draftOfField,
  emptyField,
  FIELD_TYPES,
  type FieldDraft,
  type FieldType,
  idFromLabel,
  tryPattern,
} from '../fields-model.ts';
import { describedBy, FieldNotes } from '../parts/field-notes.tsx';
import { FormScreen, useForm } from '../parts/form-screen.tsx';

/**
 * The fields builder: add, edit, move (buttons, so keyboards and screen
 * readers can), remove; checked with the route's own schema, then saved as
 * the form's `fields` in one PATCH.
 */
export function FieldsScreen(props: { formId: string }) {
  const { formId } = props;
  const [drafts, setDrafts] = useState<FieldDraft[]>([]);
  const loaded = useForm(formId, (form) => setDrafts((form.fields ?? []).map(draftOfField)));
  const [problems, setProblems] = useState<Record<string, Record<string, string>>>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const focusKey = useRef<string | undefined>(undefined);
  // A field just added or moved keeps the keyboard's place.
  useEffect(() => {
    if (!focusKey.current) return;
    document.getElementById(focusKey.current)?.focus();
    focusKey.current = undefined;
  });

  const change = (key: string, patch: Partial<FieldDraft>) =>
    setDrafts((now) =>
      now.map((draft) => {
        if (draft.key !== key) return draft;
        const next = { ...draft, ...patch };
        // The id follows the label until it is typed itself.
        if (patch.label !== undefined && !draft.idEdited) next.id = idFromLabel(patch.label);
        return next;
      }),
    );
  const move = (index: number, by: -1 | 1, focus: string) => {
    const next = [...drafts];
    const [field] = next.splice(index, 1);
    next.splice(index + by, 0, field!);
    focusKey.current = focus;
    setDrafts(next);
  };
  const save = async (event: Event) => {
    event.preventDefault();
    setMessage('');
    const { fields, problems: found } = checkFields(drafts);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      setMessage('Correct the fields marked below; nothing was saved.');
      return;
    }
    setBusy(true);
    try {
      const saved = await call('updateForm', {
        params: { id: formId },
        body: { fields: fields.length > 0 ? fields : null },
      });
      loaded.setForm(saved);
      setMessage('Fields saved.');
    } catch (failure) {
      if (failure instanceof ApiError) {
        const mapped: Record<string, Record<string, string>> = {};
        for (const issue of failure.issues) {
          const [, index, property = 'id'] = issue.path.split('.');
          const draft = drafts[Number(index)];
          if (!draft) continue;
          const found = mapped[draft.key] ?? {};
          found[property] ??= issue.message;
          mapped[draft.key] = found;
        }
        setProblems(mapped);
        setMessage(failure.message);
      } else setMessage('Not saved: try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormScreen loaded={loaded} class="fields-builder" title={(form) => `Fields of ${form.name}`}>
      {() => (
        <>
          <p class="hint">
            {drafts.length === 0
              ? 'No fields: the form accepts any answers. Add fields to check them and to label them in the inbox.'
              : 'Answers are checked against these fields; the inbox shows them by their labels, in this order.'}
          </p>
          <form onSubmit={save} noValidate aria-label="Fields">
            <ol class="field-list">
              {drafts.map((draft, index) => (
                <li key={draft.key}>
                  <FieldEditor
                    draft={draft}
                    number={index + 1}
                    problems={problems[draft.key] ?? {}}
                    onChange={(patch) => change(draft.key, patch)}
                    onUp={index > 0 ? () => move(index, -1, `${draft.key}-up`) : undefined}
                    onDown={
                      index < drafts.length - 1
                        ? () => move(index, 1, `${draft.key}-down`)
                        : undefined
                    }
                    onRemove={() => setDrafts(drafts.filter((d) => d.key !== draft.key))}
                  />
                </li>
              ))}
            </ol>
            <div class="actions">
              <button
                type="button"
                class="quiet"
                onClick={() => {
                  const field = emptyField();
                  focusKey.current = `${field.key}-label`;
                  setDrafts([...drafts, field]);
                }}
              >
                Add a field
              </button>
              <button type="submit" disabled={busy}>
                Save fields
              </button>
              <span role="status">{message}</span>
            </div>
          </form>
        </>
      )}
    </FormScreen>
  );
}

function FieldEditor(props: {
  draft: FieldDraft;
  number: number;
  problems: Record<string, string>;
  onChange: (patch: Partial<FieldDraft>) => void;
  onUp?: () => void;
  onDown?: () => void;
  onRemove: () => void;
}) {
  const { draft, problems } = props;
  const [sample, setSample] = useState('');
  const name = draft.label || draft.id || `field ${props.number}`;
  const input = (
    property: (keyof FieldDraft & keyof typeof problems) | string,
    label: string,
    options: { type?: string; multiline?: boolean; hint?: string } = {},
  ) => {
    const id = `${draft.key}-${property}`;
    const problem = problems[property];
    const value = draft[property as keyof FieldDraft] as string;
    const described = describedBy(id, { hint: options.hint, problem });
    const onInput = (event: { currentTarget: { value: string } }) =>
      props.onChange({
        [property]: event.currentTarget.value,
        ...(property === 'id' ? { idEdited: true } : {}),
      });
    return (
      <div class="setting">
        <label for={id}>{label}</label>
        {options.multiline ? (
          <textarea
            id={id}
            rows={4}
            value={value}
            aria-invalid={problem ? 'true' : undefined}
            aria-describedby={described}
            onInput={onInput}
          />
        ) : (
          <input
            id={id}
            type={(options.type ?? 'text') as 'text'}
            value={value}
            aria-invalid={problem ? 'true' : undefined}
            aria-describedby={described}
            onInput={onInput}
          />
        )}
        <FieldNotes id={id} hint={options.hint} problem={problem} />
      </div>
    );
  };
  const verdict = draft.pattern && sample ? tryPattern(draft.pattern, sample) : undefined;
  return (
    <fieldset class="field-editor">
      <legend>
        Field {props.number}: {name}
      </legend>
      <div class="field-grid">
        {input('label', 'Label')}
        {input('id', 'Id (the answer’s name in posts)', {
          hint: draft.idEdited ? undefined : 'Follows the label until you change it.',
        })}
        <div class="setting">
          <label for={`${draft.key}-type`}>Type</label>
          <select
            id={`${draft.key}-type`}
            value={draft.type}
            onChange={(event) => props.onChange({ type: event.currentTarget.value as FieldType })}
          >
            {FIELD_TYPES.map(([type, label]) => (
              <option key={type} value={type}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div class="setting check">
          <input
            id={`${draft.key}-required`}
            type="checkbox"
            checked={draft.required}
            onChange={(event) => props.onChange({ required: event.currentTarget.checked })}
          />
          <label for={`${draft.key}-required`}>Required</label>
        </div>
        {input('helpText', 'Help text')}
        {input('placeholder', 'Placeholder')}
        {(draft.type === 'select' || draft.type === 'radio') &&
          input('options', 'Options, one a line', { multiline: true })}
        {draft.type === 'number' && (
          <>
            {input('min', 'Smallest', { type: 'number' })}
            {input('max', 'Largest', { type: 'number' })}
          </>
        )}
        {draft.type === 'rating' && (
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
            {input(
              'stars',
              draft.ratingMin === '0' ? 'Highest score (3 to 10)' : 'Stars (3 to 10)',
              { type: 'number' },
            )}
          </>
        )}
        {(draft.type === 'text' || draft.type === 'textarea') &&
          input('maxLength', 'Longest answer (characters)', { type: 'number' })}
        {draft.type === 'text' && (
          <>
            {input('minLength', 'Shortest answer (characters)', { type: 'number' })}
            {input('pattern', 'Pattern (a regular expression the whole answer must match)')}
            {draft.pattern && (
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
            )}
          </>
        )}
      </div>
      <div class="tools">
        <button
          type="button"
          class="quiet"
          id={`${draft.key}-up`}
          disabled={!props.onUp}
          aria-label={`Move up: ${name}`}
          onClick={props.onUp}
        >
          Move up
        </button>
        <button
          type="button"
          class="quiet"
          id={`${draft.key}-down`}
          disabled={!props.onDown}
          aria-label={`Move down: ${name}`}
          onClick={props.onDown}
        >
          Move down
        </button>
        <button
          type="button"
          class="danger"
          aria-label={`Remove: ${name}`}
          onClick={props.onRemove}
        >
          Remove
        </button>
      </div>
    </fieldset>
  );
}
