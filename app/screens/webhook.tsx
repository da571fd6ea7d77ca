import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../api.ts';
import { type Action, failureWords, useAction, useQuery } from '../data.ts';
import type { Delivery, Webhook } from '../model.ts';
import { Confirm } from '../parts/confirm.tsx';
import { CopyField } from '../parts/copy-field.tsx';
import { Loading, Outcome, Problem } from '../parts/feedback.tsx';
import { Listing } from '../parts/listing.tsx';
import { useSession } from '../session.ts';
import { When } from '../time.tsx';

/** How long "send a test" watches the log for the test's delivery. */
const TEST_WATCH_MS = 15_000;

/**
 * A form's webhook: connect an https:// address, change it, reveal, copy and
 * rotate the signing secret, disconnect; and the delivery log with retry.
 */
export function WebhookScreen(props: { formId: string }) {
  const { formId } = props;
  const session = useSession();
  const action = useAction();
  const query = useQuery(formId, async (signal): Promise<Webhook | null> => {
    try {
      return await call('getWebhook', { params: { id: formId }, signal });
    } catch (failure) {
      // The form exists but has no webhook: the screen offers to connect one.
      if (
        failure instanceof ApiError &&
        failure.status === 404 &&
        failure.message.startsWith('Webhook')
      )
        return null;
      throw failure;
    }
  });
  const { data: webhook, error, reload: load } = query;
  const changed = (next: Webhook | null, notice: string) => {
    query.setData(next);
    action.setNotice(notice);
  };

  return (
    <main id="main" class="webhook">
      <h2>Webhook</h2>
      <Outcome action={action} />
      {error ? (
        <Problem error={error} retry={load} />
      ) : webhook === undefined ? (
        <Loading />
      ) : session.team.plan !== 'pro' ? (
        <p class="warning">
          Webhooks are a Pro feature: this team is on the Free plan, so none is sent.
        </p>
      ) : webhook === null ? (
        <Connect
          formId={formId}
          onConnected={(made) =>
            changed(made, 'Connected. Copy the signing secret to check the signatures.')
          }
        />
      ) : (
        <Connected formId={formId} webhook={webhook} action={action} onChanged={changed} />
      )}
    </main>
  );
}

/** The address field of connect and change: the route's refusal shown at the field. */
function UrlForm(props: {
  formId: string;
  label: string;
  submit: string;
  initial?: string;
  onSaved: (webhook: Webhook, created: boolean) => void;
}) {
  const [url, setUrl] = useState(props.initial ?? '');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const id = `webhook-url-${props.submit.toLowerCase()}`;
  return (
    <form
      class="url-form"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setProblem('');
        try {
          const existed = props.initial !== undefined;
          const saved = await call('putWebhook', { params: { id: props.formId }, body: { url } });
          props.onSaved(saved, !existed);
        } catch (failure) {
          setProblem(failureWords(failure));
        } finally {
          setBusy(false);
        }
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
      <button type="submit" disabled={busy}>
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

function Connect(props: { formId: string; onConnected: (webhook: Webhook) => void }) {
  return (
    <section aria-labelledby="connect-title">
      <h2 id="connect-title">Connect a webhook</h2>
      <p class="hint">
        Every stored submission is sent to this address as JSON, signed with the Standard Webhooks
        scheme, and retried for about a day when it fails.
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

function Connected(props: {
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
          <button
            type="button"
            disabled={action.busy}
            onClick={() =>
              action.run(async () => {
                await call('sendTestSubmission', { params: { id: formId } });
                setTestSentAt(Date.now());
              }, 'Test submission sent: its delivery shows below.')
            }
          >
            Send a test
          </button>
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

const STATUS_WORDS: Record<Delivery['status'], string> = {
  pending: 'Pending',
  retrying: 'Retrying',
  delivered: 'Delivered',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

function Deliveries(props: { formId: string; watchSince?: number }) {
  const { formId } = props;
  const [older, setOlder] = useState<{ deliveries: Delivery[]; next: string | null }>();
  const [busy, setBusy] = useState<string>();
  const action = useAction();
  const newest = useQuery(formId, (signal) =>
    call('listWebhookDeliveries', { params: { id: formId }, signal }),
  );
  const load = () => {
    setOlder(undefined);
    return newest.reload();
  };
  const { error } = newest;
  const pages = newest.data && [...newest.data.deliveries, ...(older?.deliveries ?? [])];
  const next = older ? older.next : (newest.data?.next ?? null);
  // After "send a test": look again every second until its delivery has an outcome.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new test is what starts the watch
  useEffect(() => {
    if (!props.watchSince) return;
    const timer = setInterval(() => {
      if (Date.now() - props.watchSince! > TEST_WATCH_MS) clearInterval(timer);
      void load();
    }, 1000);
    return () => clearInterval(timer);
  }, [props.watchSince]);

  if (error) return <Problem error={error} retry={load} />;
  if (!pages) return <Loading label="Loading deliveries…" />;
  return (
    <section aria-labelledby="log-title">
      <h2 id="log-title">Deliveries</h2>
      {pages.length === 0 ? (
        <p class="hint">None yet: the next stored submission is sent.</p>
      ) : (
        <Listing
          columns={[
            'Submission received',
            'Status',
            'Attempts',
            'Last answer',
            { hidden: 'Action' },
          ]}
        >
          {pages.map((delivery) => {
            const last = delivery.attempts.at(-1);
            return (
              <tr key={delivery.deliveryId}>
                <td>
                  <When at={delivery.createdAt} />
                </td>
                <td>
                  {STATUS_WORDS[delivery.status]}
                  {delivery.cancelReason && ` (${delivery.cancelReason.replace(/_/g, ' ')})`}
                  {delivery.nextAttemptAt && (
                    <>
                      , next <When at={delivery.nextAttemptAt} />
                    </>
                  )}
                </td>
                <td>{delivery.attemptCount}</td>
                <td>
                  {last
                    ? `${last.responseStatus ?? last.error ?? 'no answer'}, ${Math.round(last.durationMs)} ms`
                    : '–'}
                </td>
                <td>
                  {(delivery.status === 'failed' || delivery.status === 'cancelled') && (
                    <button
                      type="button"
                      disabled={busy === delivery.deliveryId}
                      aria-label={`Retry the delivery of ${new Date(delivery.createdAt).toLocaleString()}`}
                      onClick={async () => {
                        setBusy(delivery.deliveryId);
                        await action.run(async () => {
                          await call('retryWebhookDelivery', {
                            params: { id: formId, deliveryId: delivery.deliveryId },
                          });
                          await load();
                        });
                        setBusy(undefined);
                      }}
                    >
                      Retry
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </Listing>
      )}
      <Outcome action={action} />
      {next && (
        <button
          type="button"
          class="quiet"
          disabled={action.busy}
          onClick={() =>
            action.run(async () => {
              const page = await call('listWebhookDeliveries', {
                params: { id: formId },
                query: { after: next },
              });
              setOlder({
                deliveries: [...(older?.deliveries ?? []), ...page.deliveries],
                next: page.next,
              });
            })
          }
        >
          Older deliveries
        </button>
      )}
    </section>
  );
}
