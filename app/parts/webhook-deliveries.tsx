import { useEffect, useRef, useState } from 'preact/hooks';
import { type Action, useAction, useQuery } from '../data.ts';
import { type DeliveryLogKind, readDeliveries, retryDelivery } from '../delivery-log.ts';
import type { Delivery } from '../model.ts';
import { When } from '../time.tsx';
import { answerWords, statusWords } from '../webhook-model.ts';
import { Loading, Outcome, Problem } from './feedback.tsx';
import { Listing } from './listing.tsx';
import { DeliveryDetail } from './webhook-delivery-detail.tsx';

/** How long "send a test" watches the log for the test's delivery. */
const TEST_WATCH_MS = 15_000;

/**
 * After "send a test" (at `since`): `look` again every second until the
 * test's delivery has had time for an outcome.
 */
export function useTestWatch(since: number | undefined, look: () => unknown) {
  const latest = useRef(look);
  latest.current = look;
  useEffect(() => {
    if (!since) return;
    const timer = setInterval(() => {
      if (Date.now() - since > TEST_WATCH_MS) clearInterval(timer);
      void latest.current();
    }, 1000);
    return () => clearInterval(timer);
  }, [since]);
}

/**
 * A delivery log, newest first, a page at a time; a failed delivery can be
 * retried. The webhook's (its heading a level 2 one), or a Slack or Discord
 * integration's, titled `title` under the integration's own heading.
 */
export function Deliveries(props: {
  formId: string;
  kind?: DeliveryLogKind;
  title?: string;
  watchSince?: number;
  /** False where a retry would be refused (an integration of a team that left Pro). */
  retry?: boolean;
}) {
  const { formId, kind = 'webhook' } = props;
  const [older, setOlder] = useState<{ deliveries: Delivery[]; next: string | null }>();
  const action = useAction();
  const newest = useQuery(`${formId} ${kind}`, (signal) =>
    readDeliveries(formId, kind, undefined, signal),
  );
  const load = () => {
    setOlder(undefined);
    return newest.reload();
  };
  useTestWatch(props.watchSince, load);
  const { error } = newest;
  const pages = newest.data && [...newest.data.deliveries, ...(older?.deliveries ?? [])];
  const next = older ? older.next : (newest.data?.next ?? null);

  if (error) return <Problem error={error} retry={load} />;
  if (!pages) return <Loading label="Loading deliveries…" />;
  const titleId = `${kind}-log-title`;
  const Heading = kind === 'webhook' ? 'h2' : 'h3';
  return (
    <section aria-labelledby={titleId}>
      <Heading id={titleId}>{props.title ?? 'Deliveries'}</Heading>
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
              kind={kind}
              canRetry={props.retry ?? true}
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
              const page = await readDeliveries(formId, kind, next);
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
  kind: DeliveryLogKind;
  canRetry: boolean;
  delivery: Delivery;
  action: Action;
  onRetried: () => Promise<void>;
}) {
  const { formId, kind, delivery, action } = props;
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
          {props.canRetry && (delivery.status === 'failed' || delivery.status === 'cancelled') && (
            <button
              type="button"
              disabled={busy}
              aria-label={`Retry the delivery of ${exact}`}
              onClick={async () => {
                setBusy(true);
                await action.run(async () => {
                  await retryDelivery(formId, kind, delivery.deliveryId);
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
            <DeliveryDetail formId={formId} kind={kind} delivery={delivery} />
          </td>
        </tr>
      )}
    </>
  );
}
