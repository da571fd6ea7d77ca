import { useEffect, useRef, useState } from 'preact/hooks';
import type { LogicField } from '#domain/form-logic.ts';
import { logicIssues } from '#domain/form-logic-checks.ts';
import { ApiError, call } from '../api.ts';
import { failureWords } from '../data.ts';
import {
  type Entry,
  entriesOfForm,
  fieldsIn,
  formOfEntries,
  isPage,
  withoutField,
  withoutPage,
  withPageBreak,
} from '../fields-layout.ts';
import {
  checkFields,
  emptyField,
  type FieldDraft,
  type FieldProblem,
  type FilesState,
  fieldProblemOf,
  fileFieldProblems,
  idFromLabel,
  savingTurnsFilesOn,
} from '../fields-model.ts';
import type { PageDraft } from '../logic-model.ts';
import { ADD_PAGE_ID, logicProblemOf } from '../logic-problems.ts';
import type { Form } from '../model.ts';
import { fromApi, type RawIssue } from '../problem-sentences.ts';
import { useSession } from '../session.ts';
import { useForm } from './form-screen.tsx';

const snapshot = (entries: readonly Entry[]) => JSON.stringify(formOfEntries(entries));
const savedOf = (form: Form) => snapshot(entriesOfForm(form));

/** An issue (the page's own check or a 400's) at its control, in words. */
const problemOf = (entries: readonly Entry[], issue: RawIssue): FieldProblem =>
  logicProblemOf(entries, issue) ??
  fieldProblemOf(fieldsIn(entries), {
    ...issue,
    path: issue.path[0] === 'fields' ? issue.path.slice(1) : issue.path,
  });

/**
 * The routing rules of the notification with the ids of fields renamed here,
 * so a field's new id does not leave a rule naming the old one; undefined
 * when no rule names a renamed field (the save then leaves them alone).
 */
function renamedRules(form: Form, saved: ReadonlyMap<string, string>, entries: readonly Entry[]) {
  const renamed = new Map<string, string>();
  for (const draft of fieldsIn(entries)) {
    const before = saved.get(draft.key);
    if (before !== undefined && before !== draft.id) renamed.set(before, draft.id);
  }
  const rules = form.notifyRules ?? [];
  const names = (group: Form['notifyRules'][number]['if']) =>
    ('all' in group ? group.all : group.any).some((each) => renamed.has(each.field));
  if (!rules.some((rule) => names(rule.if))) return undefined;
  const rename = <T extends { field: string }>(each: T) => ({
    ...each,
    field: renamed.get(each.field) ?? each.field,
  });
  return rules.map((rule) => ({
    ...rule,
    if: 'all' in rule.if ? { all: rule.if.all.map(rename) } : { any: rule.if.any.map(rename) },
  }));
}

/**
 * The fields builder's state: the fields and page breaks as edited (in the
 * walk's order), which cards are open, the problems of the last refused
 * save, and the actions on them. What the screen does not show of a field
 * or the form (its logic included) is kept as saved. A field just added or
 * moved keeps the keyboard's place.
 */
export function useFieldDrafts(formId: string) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [saved, setSaved] = useState(snapshot([]));
  const savedIds = useRef<ReadonlyMap<string, string>>(new Map());
  const keep = (form: Form, next: Entry[]) => {
    savedIds.current = new Map(fieldsIn(next).map((draft) => [draft.key, draft.id]));
    setSaved(savedOf(form));
  };
  const loaded = useForm(formId, (form) => {
    const next = entriesOfForm(form);
    setEntries(next);
    keep(form, next);
  });
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [attempt, setAttempt] = useState(0);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const focusId = useRef<string | undefined>(undefined);
  const plan = useSession().team.plan;
  const files: FilesState | undefined = loaded.form && {
    allowUploads: loaded.form.allowUploads,
    uploadLimitMb: loaded.form.uploadLimitMb,
    plan,
  };
  const drafts = fieldsIn(entries);
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
  const update = (change: (now: Entry[]) => Entry[], focus?: string) => {
    focusId.current = focus;
    setEntries(change);
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setMessage('');
    const form = loaded.form;
    if (!form) return;
    const { fields, problems: checked } = checkFields(drafts);
    const layout = formOfEntries(entries);
    // The form's logic checked as the save would check it, with the same words.
    const logic =
      checked.length === 0
        ? logicIssues(
            {
              fields: layout.fields as unknown as LogicField[],
              pages: layout.pages,
              notifyRules: [],
            },
            { fields: form.fields },
          ).map((issue) => problemOf(entries, fromApi(issue)))
        : [];
    const found = [...checked, ...logic, ...(files ? fileFieldProblems(drafts, files) : [])];
    if (found.length > 0) return refuse(found);
    setProblems([]);
    setBusy(true);
    // A file field needs a form that accepts files: on Pro the save turns it on, as the
    // file field's type said it would (docs/dashboard.md#settings-and-fields).
    const turnsFilesOn = files !== undefined && savingTurnsFilesOn(drafts, files);
    // Routing is Pro: on a team back on Free the save is refused at the rule instead (in words).
    const rules = plan === 'pro' ? renamedRules(form, savedIds.current, entries) : undefined;
    try {
      const savedForm = await call('updateForm', {
        params: { id: formId },
        body: {
          fields: fields.length > 0 ? fields : null,
          // Sent when the form has or had pages, so a form without them is saved as before.
          ...(layout.pages || (form.pages?.length ?? 0) > 0 ? { pages: layout.pages } : {}),
          ...(rules ? { notifyRules: rules } : {}),
          ...(turnsFilesOn ? { allowUploads: true } : {}),
        },
      });
      loaded.setForm(savedForm);
      keep(savedForm, entries);
      setMessage(
        turnsFilesOn
          ? `Fields saved. The form accepts files now, up to ${savedForm.uploadLimitMb} MB each.`
          : 'Fields saved.',
      );
    } catch (failure) {
      if (failure instanceof ApiError && failure.issues.length > 0)
        refuse(failure.issues.map((issue) => problemOf(entries, fromApi(issue))));
      else setMessage(failureWords(failure));
    } finally {
      setBusy(false);
    }
  };

  return {
    loaded,
    files,
    entries,
    drafts,
    open,
    problems,
    attempt,
    message,
    busy,
    unsaved: snapshot(entries) !== saved,
    save,
    opened,
    toggle: (key: string) =>
      setOpen((now) => {
        const next = new Set(now);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    change: (key: string, patch: Partial<FieldDraft>) =>
      setEntries((now) =>
        now.map((entry) => {
          if (entry.key !== key || isPage(entry)) return entry;
          const next = { ...entry, ...patch };
          // The id follows the label until it is typed itself.
          if (patch.label !== undefined && !entry.idEdited) next.id = idFromLabel(patch.label);
          return next;
        }),
      ),
    changePage: (key: string, patch: Partial<PageDraft>) =>
      setEntries((now) =>
        now.map((entry) => (entry.key === key && isPage(entry) ? { ...entry, ...patch } : entry)),
      ),
    move: (index: number, by: -1 | 1, focus: string) =>
      update((now) => {
        const next = [...now];
        const [entry] = next.splice(index, 1);
        next.splice(index + by, 0, entry!);
        return next;
      }, focus),
    remove: (key: string) => update((now) => withoutField(now, key)),
    add: () => {
      const field = emptyField();
      opened([field.key]);
      update((now) => [...now, field], `${field.key}-label`);
    },
    addPage: () => {
      const { entries: next, added } = withPageBreak(entries);
      update(() => next, `${added.key}-title`);
    },
    // The keyboard goes to the button that adds one back.
    removePage: (key: string) => update((now) => withoutPage(now, key), ADD_PAGE_ID),
  };
}
