import { useEffect, useRef } from 'preact/hooks';
import { DEFAULT_FIELDS, type PublicForm } from '#domain/public-form.ts';
import { formCss, formMarkup } from '#http/pages/form-markup.ts';
import { DEFAULT_SUCCESS_MESSAGE, type DesignDraft } from '../design-draft.ts';
import type { Form } from '../model.ts';

/**
 * The hosted page as the draft would draw it: the same markup and styles
 * as `/f/{key}` and the embed (form-markup.ts), in a shadow root so the
 * dashboard's styles and the form's do not meet. Sending is off.
 */
export function DesignPreview(props: { form: Form; draft: DesignDraft }) {
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
      // Every field, as the hosted page draws it; the preview never sends, so a file field is
      // drawn as it would be, disabled only when the form cannot take files.
      fields: (form.fields ?? DEFAULT_FIELDS) as PublicForm['fields'],
      // The design's preview draws every field on one page.
      pages: null,
      multipart: false,
      filesOff: !form.allowUploads && (form.fields ?? []).some((field) => field.type === 'file'),
      closedMessage: null,
      captchaSiteKey: null,
      successTitle: 'Thank you!',
      successMessage: draft.successMessage.trim() || DEFAULT_SUCCESS_MESSAGE,
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
