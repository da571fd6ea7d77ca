import type { Form } from '../model.ts';
import { CopyField } from '../parts/copy-field.tsx';
import { FormScreen, useForm } from '../parts/form-screen.tsx';
import { Link } from '../parts/link.tsx';
import { paths } from '../paths.ts';
import { embedSnippet, hostedPageOf, htmlSnippet } from '../snippets.ts';

/** How to publish a form: its endpoint, hosted page, embed and a ready HTML form. */
export function Share(props: { formId: string }) {
  const loaded = useForm(props.formId);
  return (
    <FormScreen loaded={loaded} class="share-screen" title={(form) => `Share ${form.name}`}>
      {(form) => (
        <>
          <SharePanel form={form} />
          <p class="hint">
            A leaked endpoint? Give the form a new key in{' '}
            <Link to={paths.formTab(form.id, 'settings')}>Settings, danger zone</Link>: the old
            endpoint stops at once.
          </p>
        </>
      )}
    </FormScreen>
  );
}

export function SharePanel(props: { form: Pick<Form, 'endpoint' | 'key' | 'fields' | 'design'> }) {
  const { form } = props;
  return (
    <section class="share" aria-label="Share">
      <CopyField label="Endpoint" value={form.endpoint} />
      <CopyField label="Hosted page" value={hostedPageOf(form.endpoint)} />
      <CopyField label="Embed snippet" value={embedSnippet(form.endpoint, form.key)} />
      <CopyField
        label="HTML form"
        value={htmlSnippet(form.endpoint, form.fields, form.design)}
        multiline
      />
    </section>
  );
}
