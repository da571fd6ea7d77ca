import { useState } from 'preact/hooks';
import type { ChatKind } from '#domain/integrations.ts';
import { call } from '../api.ts';
import type { Action } from '../data.ts';
import { CHAT_NAMES, CHAT_URL_SOURCES, type ChatIntegration } from '../integrations-model.ts';
import { When } from '../time.tsx';
import { Confirm } from './confirm.tsx';
import { IntegrationState } from './integration-state.tsx';
import { ChatUrlForm } from './integration-url-form.tsx';
import { Deliveries } from './webhook-deliveries.tsx';

/**
 * One chat's section of the integrations screen: connect by pasting its
 * incoming-webhook URL, or, connected, its state, the URL as the API cuts
 * it, a new URL, disconnect after a question, and its delivery log.
 */
export function ChatSection(props: {
  formId: string;
  kind: ChatKind;
  integration: ChatIntegration | null;
  /** The screen's action: busy, notice and failure in words. */
  action: Action;
  /** On Free only what is connected shows, to see and disconnect (docs/integrations.md#the-api). */
  pro: boolean;
  watchSince?: number;
  onChanged: (integration: ChatIntegration | null, notice: string) => void;
}) {
  const { formId, kind, integration } = props;
  const name = CHAT_NAMES[kind];
  const titleId = `${kind}-title`;
  return (
    <section class="integration" aria-labelledby={titleId}>
      <h2 id={titleId}>{name}</h2>
      {integration ? (
        <Connected {...props} integration={integration} />
      ) : (
        <>
          <p class="hint">
            Each stored submission is posted to a {name} channel as a message.{' '}
            {CHAT_URL_SOURCES[kind]}
          </p>
          <ChatUrlForm
            formId={formId}
            kind={kind}
            submit="Connect"
            onSaved={(made) =>
              props.onChanged(made, `${name} connected: the next submission is posted there.`)
            }
          />
        </>
      )}
    </section>
  );
}

function Connected(props: {
  formId: string;
  kind: ChatKind;
  integration: ChatIntegration;
  action: Action;
  pro: boolean;
  watchSince?: number;
  onChanged: (integration: ChatIntegration | null, notice: string) => void;
}) {
  const { formId, kind, integration, action } = props;
  const name = CHAT_NAMES[kind];
  const [changing, setChanging] = useState(false);
  const [asking, setAsking] = useState(false);
  return (
    <>
      <IntegrationState integration={integration} />
      <dl class="meta">
        <dt>Webhook URL</dt>
        <dd>
          <code>{integration.webhookUrl}</code>
        </dd>
        <dt>Last delivered</dt>
        <dd>
          {integration.lastDeliveryAt ? <When at={integration.lastDeliveryAt} /> : 'Nothing yet'}
        </dd>
        <dt>Connected</dt>
        <dd>
          <When at={integration.connectedAt} />
        </dd>
      </dl>
      <p class="hint">The URL is shown cut: anyone who has it whole can post to the channel.</p>
      {changing ? (
        <ChatUrlForm
          formId={formId}
          kind={kind}
          submit="Save"
          onCancel={() => setChanging(false)}
          onSaved={(saved) => {
            setChanging(false);
            props.onChanged(saved, `${name} URL saved.`);
          }}
        />
      ) : (
        <div class="tools">
          {props.pro && (
            <button type="button" class="quiet" onClick={() => setChanging(true)}>
              Change the URL<span class="visually-hidden"> of {name}</span>
            </button>
          )}
          <button
            type="button"
            class="danger"
            disabled={action.busy}
            onClick={() => setAsking(true)}
          >
            Disconnect {name}
          </button>
        </div>
      )}
      <Deliveries
        formId={formId}
        kind={kind}
        title={`${name} deliveries`}
        watchSince={props.watchSince}
        retry={props.pro}
      />
      {asking && (
        <Confirm
          title={`Disconnect ${name}?`}
          confirm="Disconnect"
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            void action.run(async () => {
              await call('deleteIntegration', { params: { id: formId, kind } });
              props.onChanged(null, `${name} disconnected: messages still waiting are cancelled.`);
            });
          }}
        >
          <p>Nothing more is posted to the channel; messages still waiting end as cancelled.</p>
        </Confirm>
      )}
    </>
  );
}
