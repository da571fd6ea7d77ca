import { call } from '../api.ts';
import { useQuery } from '../data.ts';
import { paths } from '../paths.ts';
import { deliveryWords } from '../submission-model.ts';
import { When } from '../time.tsx';
import { Problem } from './feedback.tsx';
import { Link } from './link.tsx';

/**
 * How this submission's delivery to the form's webhook went, read alone
 * (`?submissionId=`: one item, docs/delivery.md#delivery-log), with a link
 * to the webhook screen's log. Nothing when no delivery was made (no
 * webhook, or one connected after this submission).
 */
export function SubmissionDelivery(props: { formId: string; submissionId: string }) {
  const { formId, submissionId } = props;
  const read = useQuery(`${formId}/${submissionId}`, (signal) =>
    call('listWebhookDeliveries', {
      params: { id: formId },
      query: { submissionId, limit: 1 },
      signal,
    }),
  );
  if (read.error) return <Problem error={read.error} retry={() => void read.reload()} />;
  const delivery = read.data?.deliveries.find((each) => each.submissionId === submissionId);
  if (!delivery) return null;
  const words = deliveryWords(delivery);
  const open = delivery.status === 'pending' || delivery.status === 'retrying';
  return (
    <section aria-labelledby="delivery-title">
      <h2 id="delivery-title">Webhook</h2>
      <p>
        <strong>{words.status}</strong>
        {delivery.attempts.at(-1) && (
          <>
            {' '}
            (last tried <When at={delivery.attempts.at(-1)!.at} />)
          </>
        )}
      </p>
      <p>{words.detail}</p>
      <p class="row">
        <Link to={paths.formTab(formId, 'webhook')}>See the webhook’s deliveries</Link>
        {open && (
          <button type="button" disabled={read.loading} onClick={() => void read.reload()}>
            Check again
          </button>
        )}
      </p>
    </section>
  );
}
