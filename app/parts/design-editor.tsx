import { useState } from 'preact/hooks';
import { ApiError, call } from '../api.ts';
import { failureWords } from '../data.ts';
import {
  DEFAULT_ACCENT,
  DEFAULT_SUCCESS_MESSAGE,
  type DesignDraft,
  designToSave,
} from '../design-draft.ts';
import type { Form } from '../model.ts';
import { DesignPreview } from './design-preview.tsx';

/** The design's settings beside the hosted page's preview; saved as one change of the form. */
export function DesignEditor(props: {
  form: Form;
  draft: DesignDraft;
  setDraft: (draft: DesignDraft) => void;
  onSaved: (form: Form) => void;
}) {
  const { form, draft, setDraft } = props;
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
    try {
      const saved = await call('updateForm', {
        params: { id: form.id },
        body: { design: designToSave(draft, form.design) },
      });
      props.onSaved(saved);
      setMessage('Design saved.');
    } catch (failure) {
      const found: Record<string, string> = {};
      if (failure instanceof ApiError) {
        for (const issue of failure.issues) found[issue.path.split('.')[1] ?? ''] ??= issue.message;
      }
      setProblems(found);
      setMessage(
        Object.keys(found).length > 0
          ? 'Not saved: see the marked settings.'
          : `Not saved: ${failureWords(failure)}`,
      );
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
        {field('successMessage', 'Message after sending', true)}
        <div class="actions">
          <button type="submit">Save the design</button>
          <span role="status">{message}</span>
        </div>
      </form>
      <section aria-labelledby="preview-title">
        <h2 id="preview-title">Preview</h2>
        <p class="hint">
          The hosted page as visitors will see it (drawn by the same code); sending is off here.
          After sending, visitors read: “{draft.successMessage.trim() || DEFAULT_SUCCESS_MESSAGE}”
        </p>
        <DesignPreview form={form} draft={draft} />
      </section>
    </div>
  );
}
