import type { ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import { useQuery } from '../data.ts';
import { formSavedAs, readForm } from '../form-read.ts';
import type { Form } from '../model.ts';
import { ScreenPending } from './feedback.tsx';
import { WorkspaceContext } from './form-workspace.tsx';

/**
 * One form, read for a screen of its own; `onLoaded` sees each form read.
 * A read for another form replaces the one under way: a slow answer for the
 * form left never shows on the one opened since.
 */
export function useForm(formId: string, onLoaded?: (form: Form) => void) {
  const query = useQuery(formId, async (signal) => {
    const loaded = await readForm(formId, signal);
    // Told only of the read that is still wanted: one replaced meanwhile was aborted.
    if (!signal.aborted) onLoaded?.(loaded);
    return loaded;
  });
  const { formSaved } = useContext(WorkspaceContext);
  const setForm = (saved: Form) => {
    query.setData(saved);
    formSavedAs(saved);
    formSaved(saved);
  };
  // The same screen for another form keeps its component: the last form's data is not this one's.
  const form = query.data?.id === formId ? query.data : undefined;
  return { form, setForm, error: query.error, load: query.reload };
}

/**
 * A screen of one form: the problem or the loading line until the form is
 * read, then its title and the screen itself (the form's workspace, around it,
 * names the form and holds the tabs).
 */
export function FormScreen(props: {
  loaded: ReturnType<typeof useForm>;
  class: string;
  title: (form: Form) => string;
  children: (form: Form) => ComponentChildren;
}) {
  const { form, error, load } = props.loaded;
  if (error || !form) return <ScreenPending error={error} retry={load} />;
  return (
    <main id="main" class={props.class}>
      <h2>{props.title(form)}</h2>
      {props.children(form)}
    </main>
  );
}
