import {
  canMoveUp,
  type Entry,
  fieldsBefore,
  fieldViews,
  isPage,
  pageEnd,
  pagesAfter,
} from '../fields-layout.ts';
import { ADD_FIELD_ID, type FieldDraft, type FieldProblem, filesNote } from '../fields-model.ts';
import { type PageDraft, pageName } from '../logic-model.ts';
import { ADD_PAGE_ID } from '../logic-problems.ts';
import { FieldCard } from '../parts/fields-card.tsx';
import { useFieldDrafts } from '../parts/fields-drafts.ts';
import { PageSection } from '../parts/fields-page.tsx';
import { FormScreen } from '../parts/form-screen.tsx';
import { useLeaveQuestion } from '../parts/leave-question.ts';
import { TryForm } from '../parts/logic-preview.tsx';
import { ErrorSummary } from '../parts/settings-error-summary.tsx';
import { SaveBar } from '../parts/settings-save-bar.tsx';

/**
 * The fields builder: cards collapsed to a line each, opened to edit; add,
 * move (buttons, so keyboards and screen readers can), remove; page breaks
 * with their titles and jumps, and each field's rules; checked with the
 * route's own schema and the save's own logic checks, then saved as the
 * form's `fields` and `pages` in one PATCH (docs/dashboard.md#settings-and-fields,
 * docs/dashboard.md#logic). What it does not show is kept as saved.
 */
export function FieldsScreen(props: { formId: string }) {
  const builder = useFieldDrafts(props.formId);
  const { entries, drafts, problems } = builder;
  useLeaveQuestion(builder.unsaved ? 'the fields' : '');
  const views = fieldViews(entries);
  const numbers = new Map(drafts.map((draft, index) => [draft.key, index + 1]));
  const pageNumbers = new Map(entries.filter(isPage).map((page, index) => [page.key, index + 1]));

  const card = (draft: FieldDraft, index: number) => (
    <FieldCard
      key={draft.key}
      draft={draft}
      number={numbers.get(draft.key)!}
      open={builder.open.has(draft.key)}
      problems={problemsAt(problems, draft.key)}
      filesNote={builder.files && filesNote(builder.files)}
      logic={{ candidates: fieldsBefore(entries, index), views }}
      onToggle={() => builder.toggle(draft.key)}
      onChange={(patch) => builder.change(draft.key, patch)}
      onUp={
        canMoveUp(entries, index) ? () => builder.move(index, -1, `${draft.key}-up`) : undefined
      }
      onDown={
        index < entries.length - 1 ? () => builder.move(index, 1, `${draft.key}-down`) : undefined
      }
      onRemove={() => builder.remove(draft.key)}
    />
  );
  const cards = (from: number, to: number) => {
    const shown = entries
      .slice(from, to)
      .map((entry, at) => (isPage(entry) ? null : card(entry, from + at)));
    return shown.length > 0 ? <ol class="field-list">{shown}</ol> : null;
  };
  const section = (page: PageDraft, index: number) => {
    const end = pageEnd(entries, index);
    const number = pageNumbers.get(page.key)!;
    const pages = pageNumbers.size;
    return (
      <PageSection
        key={page.key}
        page={page}
        number={number}
        later={pagesAfter(entries, index).map((each) => ({
          key: each.key,
          name: pageName(each, pageNumbers.get(each.key)!),
        }))}
        candidates={fieldsBefore(entries, end)}
        views={views}
        problems={problemsAt(problems, page.key)}
        empty={end === index + 1}
        onRemove={number > 1 || pages === 1 ? () => builder.removePage(page.key) : undefined}
        onChange={(patch) => builder.changePage(page.key, patch)}
      >
        {cards(index + 1, end)}
      </PageSection>
    );
  };

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
              : 'Answers are checked against these fields; the inbox shows them by their labels, in this order. Open a field to change it, or to show it only on some answers.'}
          </p>
          <form onSubmit={builder.save} noValidate aria-label="Fields">
            <ErrorSummary
              id="fields"
              items={problems}
              attempt={builder.attempt}
              onFollow={(item) => item.key && builder.opened([item.key])}
            />
            {isPage(entries[0] ?? ({} as Entry))
              ? entries.map((entry, index) => (isPage(entry) ? section(entry, index) : null))
              : cards(0, entries.length)}
            <SaveBar
              label="Save fields"
              unsaved={builder.unsaved}
              busy={builder.busy}
              message={builder.message}
            >
              <button type="button" class="quiet" id={ADD_FIELD_ID} onClick={builder.add}>
                Add a field
              </button>
              <button
                type="button"
                class="quiet"
                id={ADD_PAGE_ID}
                disabled={drafts.length === 0 || pageNumbers.size >= 10}
                onClick={builder.addPage}
              >
                Add page break
              </button>
            </SaveBar>
          </form>
          {drafts.length > 0 && <TryForm entries={entries} />}
        </>
      )}
    </FormScreen>
  );
}

/** A card's problems by property (a rule's by its control), the first of each said there. */
function problemsAt(problems: readonly FieldProblem[], key: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const problem of problems) if (problem.key === key) found[problem.property] ??= problem.text;
  return found;
}
