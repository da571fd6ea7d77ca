import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call } from '../api.ts';
import { failureWords } from '../data.ts';
import {
  ADD_FIELD_ID,
  checkFields,
  definitionOf,
  draftOfField,
  emptyField,
  type FieldDraft,
  type FieldProblem,
  fieldProblemsFromApi,
  idFromLabel,
} from '../fields-model.ts';
import type { Form } from '../model.ts';
import { FieldCard } from '../parts/fields-card.tsx';
import { FormScreen, useForm } from '../parts/form-screen.tsx';
import { ErrorSummary } from '../parts/settings-error-summary.tsx';
import { SaveBar } from '../parts/settings-save-bar.tsx';

const snapshot = (drafts: readonly FieldDraft[]) => JSON.stringify(drafts.map(definitionOf));
const savedOf = (form: Form) => snapshot((form.fields ?? []).map(draftOfField));

/**
 * The fields builder: cards collapsed to a line each, opened to edit; add,
 * move (buttons, so keyboards and screen readers can), remove; checked with
 * the route's own schema, then saved as the form's `fields` in one PATCH
 * (docs/dashboard.md#settings-and-fields).
 */
export function FieldsScreen(props: { formId: string }) {
  const { formId } = props;
  const [drafts, setDrafts] = useState<FieldDraft[]>([]);
  const [saved, setSaved] = useState('[]');
  const loaded = useForm(formId, (form) => {
    setDrafts((form.fields ?? []).map(draftOfField));
    setSaved(savedOf(form));
  });
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [attempt, setAttempt] = useState(0);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const focusId = useRef<string | undefined>(undefined);
  // A field just added or moved keeps the keyboard's place.
  useEffect(() => {
    if (!focusId.current) return;
    document.getElementById(focusId.current)?.focus();
    focusId.current = undefined;
  });
  const opened = (keys: Iterable<string>) => setOpen((now) => new Set([...now, ...keys]));
  const refuse = (found: FieldProblem[]) => {
    // The cards with a problem open, so each is shown at its control.
    opened(found.map((problem) => problem.key).filter(Boolean));
    setProblems(found);
    setAttempt((n) => n + 1);
  };

  const change = (key: string, patch: Partial<FieldDraft>) =>
    setDrafts((now) =>
      now.map((draft) => {
        if (draft.key !== key) return draft;
        const next = { ...draft, ...patch };
        if (patch.label !== undefined && !draft.idEdited) next.id = idFromLabel(patch.label);
        return next;
      }),
    );
  const move = (index: number, by: -1 | 1, focus: string) => {
    const next = [...drafts];
    const [field] = next.splice(index, 1);
    next.splice(index + by, 0, field!);
    focusId.current = focus;
    setDrafts(next);
  };
  const save = async (event: Event) => {
    event.preventDefault();
    setMessage('');
    const { fields, problems: found } = checkFields(drafts);
    if (found.length > 0) return refuse(found);
    setProblems([]);
    setBusy(true);
    try {
      const form = await call('updateForm', {
        params: { id: formId },
        body: { fields: fields.length > 0 ? fields : null },
      });
      loaded.setForm(form);
      setSaved(savedOf(form));
      setMessage('Fields saved.');
    } catch (failure) {
      if (failure instanceof ApiError && failure.issues.length > 0)
        refuse(fieldProblemsFromApi(drafts, failure.issues));
      else setMessage(failureWords(failure));
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
              : 'Answers are checked against these fields; the inbox shows them by their labels, in this order. Open a field to change it.'}
          </p>
          <form onSubmit={save} noValidate aria-label="Fields">
            <ErrorSummary
              id="fields"
              items={problems}
              attempt={attempt}
              onFollow={(item) => item.key && opened([item.key])}
            />
            <ol class="field-list">
              {drafts.map((draft, index) => (
                <FieldCard
                  key={draft.key}
                  draft={draft}
                  number={index + 1}
                  open={open.has(draft.key)}
                  problems={problemsAt(problems, draft.key)}
                  onToggle={() =>
                    setOpen((now) => {
                      const next = new Set(now);
                      if (!next.delete(draft.key)) next.add(draft.key);
                      return next;
                    })
                  }
                  onChange={(patch) => change(draft.key, patch)}
                  onUp={index > 0 ? () => move(index, -1, `${draft.key}-up`) : undefined}
                  onDown={
                    index < drafts.length - 1
                      ? () => move(index, 1, `${draft.key}-down`)
                      : undefined
                  }
                  onRemove={() => setDrafts(drafts.filter((d) => d.key !== draft.key))}
                />
              ))}
            </ol>
            <SaveBar
              label="Save fields"
              unsaved={snapshot(drafts) !== saved}
              busy={busy}
              message={message}
            >
              <button
                type="button"
                class="quiet"
                id={ADD_FIELD_ID}
                onClick={() => {
                  const field = emptyField();
                  focusId.current = `${field.key}-label`;
                  opened([field.key]);
                  setDrafts([...drafts, field]);
                }}
              >
                Add a field
              </button>
            </SaveBar>
          </form>
        </>
      )}
    </FormScreen>
  );
}

/** A card's problems by property, the first of each said at its control. */
function problemsAt(problems: readonly FieldProblem[], key: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const problem of problems) if (problem.key === key) found[problem.property] ??= problem.text;
  return found;
}
