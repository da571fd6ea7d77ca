import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.ts';
import type { Form } from '../model.ts';
import { Loading, Problem } from './feedback.tsx';
import { Link } from './link.tsx';

/** One form, read for a screen of its own; `onLoaded` sees each form read. */
export function useForm(formId: string, onLoaded?: (form: Form) => void) {
  const [form, setForm] = useState<Form>();
  const [error, setError] = useState<unknown>();
  const load = () => {
    setError(undefined);
    call('getForm', { params: { id: formId } }).then((loaded) => {
      setForm(loaded);
      onLoaded?.(loaded);
    }, setError);
  };
  useEffect(load, [formId]);
  return { form, setForm, error, load };
}

/**
 * A screen of one form: the problem or the loading line until the form is
 * read, then a way back to its inbox, the title and the screen itself.
 */
export function FormScreen(props: {
  loaded: ReturnType<typeof useForm>;
  class: string;
  title: (form: Form) => string;
  children: (form: Form) => ComponentChildren;
}) {
  const { form, error, load } = props.loaded;
  if (error)
    return (
      <main id="main">
        <Problem error={error} retry={load} />
      </main>
    );
  if (!form)
    return (
      <main id="main">
        <Loading />
      </main>
    );
  return (
    <main id="main" class={props.class}>
      <p>
        <Link to={`/forms/${form.id}`}>← {form.name}: inbox</Link>
      </p>
      <h1>{props.title(form)}</h1>
      {props.children(form)}
    </main>
  );
}
