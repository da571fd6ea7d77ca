import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call } from '../api.ts';
import { failureWords } from '../data.ts';
import {
  checkFields,
  definitionOf,
  draftOfField,
  emptyField,
  type FieldDraft,
  type FieldProblem,
  type FilesState,
  fieldProblemsFromApi,
  fileFieldProblems,
  idFromLabel,
  savingTurnsFilesOn,
} from '../fields-model.ts';
import type { Form } from '../model.ts';
import { useSession } from '../session.ts';
import { useForm } from './form-screen.tsx';

const snapshot = (drafts: readonly FieldDraft[]) => JSON.stringify(drafts.map(definitionOf));
const savedOf = (form: Form) => snapshot((form.fields ?? []).map(draftOfField));

/**
 * The fields builder's state: the drafts as edited, which cards are open,
 * the problems of the last refused save, and the actions on them. A field
 * just added or moved keeps the keyboard's place.
 */
export function useFieldDrafts(formId: string) {
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
  const plan = useSession().team.plan;
  const files: FilesState | undefined = loaded.form && {
    allowUploads: loaded.form.allowUploads,
    uploadLimitMb: loaded.form.uploadLimitMb,
    plan,
  };
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

  const save = async (event: Event) => {
    event.preventDefault();
    setMessage('');
    const { fields, problems: checked } = checkFields(drafts);
    const found = [...checked, ...(files ? fileFieldProblems(drafts, files) : [])];
    if (found.length > 0) return refuse(found);
    setProblems([]);
    setBusy(true);
    // A file field needs a form that accepts files: on Pro the save turns it on, as the
    // file field's type said it would (docs/dashboard.md#settings-and-fields).
    const turnsFilesOn = files !== undefined && savingTurnsFilesOn(drafts, files);
    try {
      const form = await call('updateForm', {
        params: { id: formId },
        body: {
          fields: fields.length > 0 ? fields : null,
          ...(turnsFilesOn ? { allowUploads: true } : {}),
        },
      });
      loaded.setForm(form);
      setSaved(savedOf(form));
      setMessage(
        turnsFilesOn
          ? `Fields saved. The form accepts files now, up to ${form.uploadLimitMb} MB each.`
          : 'Fields saved.',
      );
    } catch (failure) {
      if (failure instanceof ApiError && failure.issues.length > 0)
        refuse(fieldProblemsFromApi(drafts, failure.issues));
      else setMessage(failureWords(failure));
    } finally {
      setBusy(false);
    }
  };

  return {
    loaded,
    files,
    drafts,
    open,
    problems,
    attempt,
    message,
    busy,
    unsaved: snapshot(drafts) !== saved,
    save,
    opened,
    toggle: (key: string) =>
      setOpen((now) => {
        const next = new Set(now);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    change: (key: string, patch: Partial<FieldDraft>) =>
      setDrafts((now) =>
        now.map((draft) => {
          if (draft.key !== key) return draft;
          const next = { ...draft, ...patch };
          // The id follows the label until it is typed itself.
          if (patch.label !== undefined && !draft.idEdited) next.id = idFromLabel(patch.label);
          return next;
        }),
      ),
    move: (index: number, by: -1 | 1, focus: string) => {
      const next = [...drafts];
      const [field] = next.splice(index, 1);
      next.splice(index + by, 0, field!);
      focusId.current = focus;
      setDrafts(next);
    },
    remove: (key: string) => setDrafts(drafts.filter((draft) => draft.key !== key)),
    add: () => {
      const field = emptyField();
      focusId.current = `${field.key}-label`;
      opened([field.key]);
      setDrafts([...drafts, field]);
    },
  };
}
