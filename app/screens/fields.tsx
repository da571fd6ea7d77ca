import { ADD_FIELD_ID, type FieldProblem, filesNote } from '../fields-model.ts';
import { FieldCard } from '../parts/fields-card.tsx';
import { useFieldDrafts } from '../parts/fields-drafts.ts';
import { FormScreen } from '../parts/form-screen.tsx';
import { useLeaveQuestion } from '../parts/leave-question.ts';
import { ErrorSummary } from '../parts/settings-error-summary.tsx';
import { SaveBar } from '../parts/settings-save-bar.tsx';

/**
 * The fields builder: cards collapsed to a line each, opened to edit; add,
 * move (buttons, so keyboards and screen readers can), remove; checked with
 * the route's own schema, then saved as the form's `fields` in one PATCH
 * (docs/dashboard.md#settings-and-fields).
 */
export function FieldsScreen(props: { formId: string }) {
  const builder = useFieldDrafts(props.formId);
  const { drafts, problems } = builder;
  useLeaveQuestion(builder.unsaved ? 'the fields' : '');
  return (
    <FormScreen
      loaded={builder.loaded}
      class="fields-builder"
      title={(form) => `Fields of ${form.name}`}
    >
      {() => (
        <>
          <p class="hint">
            {drafts.length === 0
              ? 'No fields: the form accepts any answers. Add fields to check them and to label them in the inbox.'
              : 'Answers are checked against these fields; the inbox shows them by their labels, in this order. Open a field to change it.'}
          </p>
          <form onSubmit={builder.save} noValidate aria-label="Fields">
            <ErrorSummary
              id="fields"
              items={problems}
              attempt={builder.attempt}
              onFollow={(item) => item.key && builder.opened([item.key])}
            />
            <ol class="field-list">
              {drafts.map((draft, index) => (
                <FieldCard
                  key={draft.key}
                  draft={draft}
                  number={index + 1}
                  open={builder.open.has(draft.key)}
                  problems={problemsAt(problems, draft.key)}
                  filesNote={builder.files && filesNote(builder.files)}
                  onToggle={() => builder.toggle(draft.key)}
                  onChange={(patch) => builder.change(draft.key, patch)}
                  onUp={index > 0 ? () => builder.move(index, -1, `${draft.key}-up`) : undefined}
                  onDown={
                    index < drafts.length - 1
                      ? () => builder.move(index, 1, `${draft.key}-down`)
                      : undefined
                  }
                  onRemove={() => builder.remove(draft.key)}
                />
              ))}
            </ol>
            <SaveBar
              label="Save fields"
              unsaved={builder.unsaved}
              busy={builder.busy}
              message={builder.message}
            >
              <button type="button" class="quiet" id={ADD_FIELD_ID} onClick={builder.add}>
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
