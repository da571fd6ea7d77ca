import { useState } from 'preact/hooks';
import { type DesignDraft, draftOf } from '../design-draft.ts';
import { DesignEditor } from '../parts/design-editor.tsx';
import { FormScreen, useForm } from '../parts/form-screen.tsx';

/** A form's design: theme, accent, texts, with the hosted page's live preview. */
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
