import type { Form } from '../model.ts';
import { CopyField } from '../parts/copy-field.tsx';
import { FormScreen, useForm } from '../parts/form-screen.tsx';
import { Link } from '../parts/link.tsx';
import { paths } from '../paths.ts';
import { useSession } from '../session.ts';
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

export function SharePanel(props: {
  form: Pick<Form, 'endpoint' | 'key' | 'fields' | 'design' | 'allowUploads' | 'pages'>;
}) {
  const { form } = props;
  const plan = useSession().team.plan;
  const filesOff = !form.allowUploads || plan !== 'pro';
  return (
    <section class="share" aria-label="Share">
      <CopyField
        label="Endpoint"
        hint="Where your own form posts: set it as the form's action, method POST (JSON works too)."
        value={form.endpoint}
      />
      <CopyField
        label="Hosted page"
        hint="A page of its own for this form: share the link, no website needed."
        value={hostedPageOf(form.endpoint)}
      />
      <CopyField
        label="Embed snippet"
        hint="Paste it into your page where the form should appear: it draws the form and sends it."
        value={embedSnippet(form.endpoint, form.key)}
      />
      <CopyField
        label="HTML form"
        hint="Your fields as a plain HTML form, ready to paste and style."
        value={htmlSnippet(form.endpoint, form.fields, form.design, filesOff, form.pages)}
        multiline
      />
    </section>
  );
}
