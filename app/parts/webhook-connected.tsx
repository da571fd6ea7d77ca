import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import type { Action } from '../data.ts';
import type { Webhook } from '../model.ts';
import { Confirm } from './confirm.tsx';
import { CopyField } from './copy-field.tsx';
import { SendTestButton } from './send-test-button.tsx';
import { Deliveries } from './webhook-deliveries.tsx';
import { UrlForm } from './webhook-url-form.tsx';

/** A connected webhook: its state, address and secret, a test, rotate and disconnect; its log. */
export function Connected(props: {
  formId: string;
  webhook: Webhook;
  /** The screen's action: its busy state, its notice and its failure in words. */
  action: Action;
  onChanged: (webhook: Webhook | null, message: string) => void;
}) {
  const { formId, webhook, action } = props;
  const [showSecret, setShowSecret] = useState(false);
  const [asking, setAsking] = useState<'rotate' | 'disconnect'>();
  const [testSentAt, setTestSentAt] = useState<number>();
  return (
    <>
      <section aria-labelledby="state-title">
        <h2 id="state-title">Where submissions go</h2>
        <p>
          <span class={`badge ${webhook.state === 'failing' ? 'paused' : 'active'}`}>
            {webhook.state === 'failing' ? 'Failing' : 'Active'}
          </span>{' '}
          {webhook.state === 'failing' && webhook.lastError && (
            <span>Last error: {webhook.lastError}</span>
          )}
        </p>
        <UrlForm
          formId={formId}
          label="Webhook URL"
          submit="Save"
          initial={webhook.url}
          onSaved={(saved) => props.onChanged(saved, 'Address saved; the secret is the same.')}
        />
        <div class="secret">
          {showSecret ? (
            <CopyField label="Signing secret" value={webhook.secret} />
          ) : (
            <button type="button" onClick={() => setShowSecret(true)}>
              Reveal the signing secret
            </button>
          )}
        </div>
        <div class="tools">
          <SendTestButton
            formId={formId}
            action={action}
            notice="Test submission sent: its delivery shows below."
            onSent={setTestSentAt}
          />
          <button
            type="button"
            class="quiet"
            disabled={action.busy}
            onClick={() => setAsking('rotate')}
          >
            Rotate the secret
          </button>
          <button
            type="button"
            class="danger"
            disabled={action.busy}
            onClick={() => setAsking('disconnect')}
          >
            Disconnect
          </button>
        </div>
      </section>
      <Deliveries formId={formId} watchSince={testSentAt} />
      {asking === 'rotate' && (
        <Confirm
          title="Rotate the signing secret?"
          confirm="Rotate"
          onCancel={() => setAsking(undefined)}
          onConfirm={() => {
            setAsking(undefined);
            // A refusal (or the service unreachable) is shown in words, not left unhandled.
            void action.run(async () => {
              const rotated = await call('rotateWebhookSecret', { params: { id: formId } });
              setShowSecret(true);
              props.onChanged(
                rotated,
                'New secret: deliveries are signed with it from now on. Update your receiver.',
              );
            });
          }}
        >
          <p>Deliveries are signed with the new secret at once; your receiver must know it.</p>
        </Confirm>
      )}
      {asking === 'disconnect' && (
        <Confirm
          title="Disconnect the webhook?"
          confirm="Disconnect"
          onCancel={() => setAsking(undefined)}
          onConfirm={() => {
            setAsking(undefined);
            void action.run(async () => {
              await call('deleteWebhook', { params: { id: formId } });
              props.onChanged(null, 'Disconnected: deliveries still waiting are cancelled.');
            });
          }}
        >
          <p>Nothing more is sent; deliveries still waiting end as cancelled.</p>
        </Confirm>
      )}
    </>
  );
}
