import { useState } from 'preact/hooks';
import type { ChatKind } from '#domain/integrations.ts';
import { call } from '../api.ts';
import { useAction } from '../data.ts';
import { CHAT_NAMES, CHAT_PLACEHOLDERS, type ChatIntegration } from '../integrations-model.ts';

/**
 * The incoming-webhook URL field of connect and change: empty each time (the
 * API never gives the URL back whole, docs/integrations.md#the-api), the
 * route's refusal shown at the field.
 */
export function ChatUrlForm(props: {
  formId: string;
  kind: ChatKind;
  submit: string;
  onSaved: (integration: ChatIntegration) => void;
  onCancel?: () => void;
}) {
  const { kind } = props;
  const [url, setUrl] = useState('');
  const save = useAction();
  const problem = save.error;
  const id = `${kind}-url`;
  return (
    <form
      class="url-form"
      onSubmit={async (event) => {
        event.preventDefault();
        const saved = await save.run(() =>
          call('putIntegration', {
            params: { id: props.formId, kind },
            body: { webhookUrl: url.trim() },
          }),
        );
        // A chat kind's PUT answers its chat integration (the union is by kind).
        if (saved && 'webhookUrl' in saved) props.onSaved(saved);
      }}
    >
      <label for={id}>{CHAT_NAMES[kind]} webhook URL</label>
      <input
        id={id}
        type="url"
        required
        autoComplete="off"
        placeholder={CHAT_PLACEHOLDERS[kind]}
        value={url}
        aria-invalid={problem ? 'true' : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onInput={(event) => setUrl(event.currentTarget.value)}
      />
      <button type="submit" disabled={save.busy}>
        {props.submit}
        <span class="visually-hidden"> {CHAT_NAMES[kind]}</span>
      </button>
      {props.onCancel && (
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      )}
      {problem && (
        <p id={`${id}-problem`} class="field-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
