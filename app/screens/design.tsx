import { useEffect, useRef, useState } from 'preact/hooks';
import { DEFAULT_FIELDS, type PublicForm } from '#domain/public-form.ts';
import { formCss, formMarkup } from '#http/pages/form-markup.ts';
import { ApiError, call } from '../api.ts';
import type { Form } from '../model.ts';
import { FormScreen, useForm } from '../parts/form-screen.tsx';

type DesignDraft = Record<
  'theme' | 'accent' | 'title' | 'description' | 'submitLabel' | 'successMessage',
  string
>;

const DEFAULT_ACCENT = '#2563eb';

function draftOf(form: Form): DesignDraft {
  const design = form.design as Partial<Record<keyof DesignDraft, string>>;
  return {
    theme: design.theme ?? 'auto',
    accent: design.accent ?? '',
    title: design.title ?? '',
    description: design.description ?? '',
    submitLabel: design.submitLabel ?? '',
    successMessage: design.successMessage ?? '',
  };
}

/**
 * The hosted page as the draft would draw it: the same markup and styles
 * as `/f/{key}` and the embed (form-markup.ts), in a shadow root so the
 * dashboard's styles and the form's do not meet. Posting is off.
 */
function Preview(props: { form: Form; draft: DesignDraft }) {
  const host = useRef<HTMLDivElement>(null);
  const { form, draft } = props;
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const root = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
    const view: PublicForm = {
      key: form.key,
      title: draft.title.trim() || form.name,
      description: draft.description.trim() || null,
      theme: draft.theme as PublicForm['theme'],
      accent: /^#[0-9a-f]{6}$/i.test(draft.accent) ? draft.accent : null,
      submitLabel: draft.submitLabel.trim() || 'Send',
      fields: ((form.fields ?? DEFAULT_FIELDS) as PublicForm['fields']).filter(
        (field) => field.type !== 'file',
      ),
      multipart: false,
      closedMessage: null,
      captchaSiteKey: null,
      successTitle: 'Thank you!',
      successMessage: draft.successMessage.trim() || 'Your submission has been received.',
      redirectUrl: null,
      renderedAt: Date.now(),
    };
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(formCss(view, ':host'));
    root.adoptedStyleSheets = [sheet];
    root.innerHTML = formMarkup(view, { action: '#', headingLevel: 2 });
    root.querySelector('form')?.addEventListener('submit', (event) => event.preventDefault());
  }, [form, draft]);
  return <div ref={host} class="design-preview" />;
}

export function DesignScreen(props: { formId: string }) {
  const [draft, setDraft] = useState<DesignDraft>();
  const loaded = useForm(props.formId, (form) => setDraft(draftOf(form)));
  return (
    <FormScreen loaded={loaded} class="design" title={(form) => `Design of ${form.name}`}>
      {(form) =>
        draft && (
          <DesignEditor form={form} draft={draft} setDraft={setDraft} onSaved={loaded.setForm} />
        )
      }
    </FormScreen>
  );
}

function DesignEditor(props: {
  form: Form;
  draft: DesignDraft;
  setDraft: (draft: DesignDraft) => void;
  onSaved: (form: Form) => void;
}) {
  const { form, draft, setDraft } = props;
  const formId = form.id;
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const set = (key: keyof DesignDraft) => (event: { currentTarget: { value: string } }) =>
    setDraft({ ...draft, [key]: event.currentTarget.value });
  const field = (key: keyof DesignDraft, label: string, multiline = false) => (
    <div class="setting">
      <label for={`design-${key}`}>{label}</label>
      {multiline ? (
        <textarea id={`design-${key}`} rows={3} value={draft[key]} onInput={set(key)} />
      ) : (
        <input id={`design-${key}`} value={draft[key]} onInput={set(key)} />
      )}
      {problems[key] && <p class="field-problem">{problems[key]}</p>}
    </div>
  );
  const save = async (event: Event) => {
    event.preventDefault();
    setMessage('');
    setProblems({});
    const design: Record<string, string> = { theme: draft.theme };
    for (const key of ['accent', 'title', 'description', 'submitLabel', 'successMessage'] as const)
      if (draft[key].trim() !== '' || (form.design as Record<string, unknown>)[key] !== undefined)
        design[key] = draft[key];
    try {
      const saved = await call('updateForm', { params: { id: formId }, body: { design } });
      props.onSaved(saved);
      setMessage('Design saved.');
    } catch (failure) {
      if (failure instanceof ApiError) {
        const found: Record<string, string> = {};
        for (const issue of failure.issues) found[issue.path.split('.')[1] ?? ''] ??= issue.message;
        setProblems(found);
        setMessage(failure.message);
      } else setMessage('Not saved: try again.');
    }
  };
  return (
    <div class="design-columns">
      <form onSubmit={save} aria-label="Design" noValidate>
        <div class="setting">
          <label for="design-theme">Theme</label>
          <select id="design-theme" value={draft.theme} onChange={set('theme')}>
            <option value="auto">Follows the visitor's system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </div>
        <div class="setting">
          <label for="design-accent">Accent colour</label>
          <input
            id="design-accent"
            type="color"
            value={draft.accent || DEFAULT_ACCENT}
            onInput={set('accent')}
          />
          {problems.accent && <p class="field-problem">{problems.accent}</p>}
        </div>
        {field('title', 'Title (empty: the form name)')}
        {field('description', 'Description', true)}
        {field('submitLabel', 'Button label (empty: Send)')}
        {field('successMessage', 'Message after a post', true)}
        <div class="actions">
          <button type="submit">Save the design</button>
          <span role="status">{message}</span>
        </div>
      </form>
      <section aria-labelledby="preview-title">
        <h2 id="preview-title">Preview</h2>
        <p class="hint">
          The hosted page as visitors will see it (drawn by the same code); sending is off here.
          After a post: “{draft.successMessage.trim() || 'Your submission has been received.'}”
        </p>
        <Preview form={form} draft={draft} />
      </section>
    </div>
  );
}
