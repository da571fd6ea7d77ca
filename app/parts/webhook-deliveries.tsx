import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { type Action, useAction, useQuery } from '../data.ts';
import type { Delivery } from '../model.ts';
import { When } from '../time.tsx';
import { answerWords, statusWords } from '../webhook-model.ts';
import { Loading, Outcome, Problem } from './feedback.tsx';
import { Listing } from './listing.tsx';
import { DeliveryDetail } from './webhook-delivery-detail.tsx';

/** How long "send a test" watches the log for the test's delivery. */
const TEST_WATCH_MS = 15_000;

/** The delivery log, newest first, a page at a time; a failed delivery can be retried. */
export function Deliveries(props: { formId: string; watchSince?: number }) {
  const { formId } = props;
  const [older, setOlder] = useState<{ deliveries: Delivery[]; next: string | null }>();
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
            { hidden: 'Actions' },
          ]}
        >
          {pages.map((delivery) => (
            <DeliveryRow
              key={delivery.deliveryId}
              formId={formId}
              delivery={delivery}
              action={action}
              onRetried={load}
            />
          ))}
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

/** One delivery: a row of the log, and under it, once opened, what was sent and answered. */
function DeliveryRow(props: {
  formId: string;
  delivery: Delivery;
  action: Action;
  onRetried: () => Promise<void>;
}) {
  const { formId, delivery, action } = props;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const last = delivery.attempts.at(-1);
  const exact = new Date(delivery.createdAt).toLocaleString();
  const detailId = `delivery-${delivery.deliveryId}`;
  return (
    <>
      <tr>
        <td>
          <When at={delivery.createdAt} />
        </td>
        <td>
          {statusWords(delivery)}
          {delivery.nextAttemptAt && (
            <>
              , next <When at={delivery.nextAttemptAt} />
            </>
          )}
        </td>
        <td>{delivery.attemptCount}</td>
        <td>{last ? answerWords(last) : '–'}</td>
        <td>
          <button
            type="button"
            class="quiet"
            aria-expanded={open}
            aria-controls={open ? detailId : undefined}
            onClick={() => setOpen(!open)}
          >
            Details
            <span class="visually-hidden"> of the delivery of {exact}</span>
          </button>
          {(delivery.status === 'failed' || delivery.status === 'cancelled') && (
            <button
              type="button"
              disabled={busy}
              aria-label={`Retry the delivery of ${exact}`}
              onClick={async () => {
                setBusy(true);
                await action.run(async () => {
                  await call('retryWebhookDelivery', {
                    params: { id: formId, deliveryId: delivery.deliveryId },
                  });
                  await props.onRetried();
                });
                setBusy(false);
              }}
            >
              Retry
            </button>
          )}
        </td>
      </tr>
      {open && (
        <tr id={detailId} class="delivery-detail">
          <td colSpan={5}>
            <DeliveryDetail formId={formId} delivery={delivery} />
          </td>
        </tr>
      )}
    </>
  );
}
