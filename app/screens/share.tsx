import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.ts';
import type { Form } from '../model.ts';
import { CopyField } from '../parts/copy-field.tsx';
import { Loading, Problem } from '../parts/feedback.tsx';
import { Link } from '../parts/link.tsx';
import { embedSnippet, hostedPageOf, htmlSnippet } from '../snippets.ts';

/** How to publish a form: its endpoint, hosted page, embed and a ready HTML form. */
export function Share(props: { formId: string }) {
  const [form, setForm] = useState<Form>();
  const [error, setError] = useState<unknown>();
  const load = () => {
    setError(undefined);
    call('getForm', { params: { id: props.formId } }).then(setForm, setError);
  };
  useEffect(load, [props.formId]);
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
    <main id="main">
      <p>
        <Link to={`/forms/${form.id}`}>← {form.name}: inbox</Link>
      </p>
      <h1>Share {form.name}</h1>
      <SharePanel form={form} />
      <p class="hint">
        A leaked endpoint? Give the form a new key in{' '}
        <Link to={`/forms/${form.id}/settings`}>Settings, danger zone</Link>: the old endpoint stops
        at once.
      </p>
    </main>
  );
}

export function SharePanel(props: { form: Pick<Form, 'endpoint' | 'key' | 'fields'> }) {
  const { form } = props;
  return (
    <section class="share" aria-label="Share">
      <CopyField label="Endpoint" value={form.endpoint} />
      <CopyField label="Hosted page" value={hostedPageOf(form.endpoint)} />
      <CopyField label="Embed snippet" value={embedSnippet(form.endpoint, form.key)} />
      <CopyField label="HTML form" value={htmlSnippet(form.endpoint, form.fields)} multiline />
    </section>
  );
}
