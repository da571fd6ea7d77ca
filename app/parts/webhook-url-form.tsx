import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { useAction } from '../data.ts';
import type { Webhook } from '../model.ts';
import { RETRY_WINDOW } from '../retry-words.ts';

/** The address field of connect and change: the route's refusal shown at the field. */
export function UrlForm(props: {
  formId: string;
  label: string;
  submit: string;
  initial?: string;
  onSaved: (webhook: Webhook, created: boolean) => void;
}) {
  const [url, setUrl] = useState(props.initial ?? '');
  const save = useAction();
  const problem = save.error;
  const id = `webhook-url-${props.submit.toLowerCase()}`;
  return (
    <form
      class="url-form"
      onSubmit={async (event) => {
        event.preventDefault();
        const existed = props.initial !== undefined;
        const saved = await save.run(() =>
          call('putWebhook', { params: { id: props.formId }, body: { url } }),
        );
        if (saved) props.onSaved(saved, !existed);
      }}
    >
      <label for={id}>{props.label}</label>
      <input
        id={id}
        type="url"
        required
        placeholder="https://example.com/hooks/forms"
        value={url}
        aria-invalid={problem ? 'true' : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onInput={(event) => setUrl(event.currentTarget.value)}
      />
      <button type="submit" disabled={save.busy}>
        {props.submit}
      </button>
      {problem && (
        <p id={`${id}-problem`} class="field-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

export function Connect(props: { formId: string; onConnected: (webhook: Webhook) => void }) {
  return (
    <section aria-labelledby="connect-title">
      <h2 id="connect-title">Connect a webhook</h2>
      <p class="hint">
        Every stored submission is sent to this address as JSON, signed with the Standard Webhooks
        scheme, and retried for {RETRY_WINDOW} when it fails.
      </p>
      <UrlForm
        formId={props.formId}
        label="Webhook URL"
        submit="Connect"
        onSaved={(webhook) => props.onConnected(webhook)}
      />
    </section>
  );
}
