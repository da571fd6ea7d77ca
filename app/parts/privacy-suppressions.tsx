import { useRef, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { failureWords, useAction, useQuery } from '../data.ts';
import { suppressionWhy } from '../email-fate-model.ts';
import type { Suppression } from '../model.ts';
import { paths } from '../paths.ts';
import { When } from '../time.tsx';
import { Confirm } from './confirm.tsx';
import { Loading, Outcome } from './feedback.tsx';
import { Link } from './link.tsx';
import { Alert, Breakable, Listing } from './listing.tsx';
import { MoreButton } from './more-button.tsx';

/**
 * The team's suppression list, for owners (GET /v1/team/suppressions,
 * docs/delivery.md#suppressed-addresses): each address the team's forms no
 * longer email, why, when, and the submission whose email it was, a page at
 * a time by address ("More addresses" reads the next); "Let emails go to it
 * again" lifts it after a question (docs/dashboard.md#the-privacy-screen).
 */
export function PrivacySuppressions() {
  const listed = useQuery('suppressions', (signal) =>
    call('listSuppressions', { query: {}, signal }),
  );
  const action = useAction();
  const [lifting, setLifting] = useState<Suppression>();
  // The pages read after the first ("More addresses"), and where the next one starts.
  const [more, setMore] = useState<{ suppressions: Suppression[]; next: string | null }>();
  const heading = useRef<HTMLHeadingElement>(null);
  const entries = listed.data && [...listed.data.suppressions, ...(more?.suppressions ?? [])];
  const next = more ? more.next : listed.data?.next;
  return (
    <section aria-labelledby="suppressions-title">
      <h2 id="suppressions-title" tabIndex={-1} ref={heading}>
        Addresses the forms no longer email
      </h2>
      <p class="hint">
        An address that bounced because it does not exist, or whose owner marked an email from the
        team's forms as spam, gets no more notifications or auto-replies from them. Another team's
        forms still email it.
      </p>
      <Outcome action={action} />
      <Alert text={listed.error ? failureWords(listed.error) : ''} />
      {!entries ? (
        !listed.error && <Loading label="Loading the addresses…" />
      ) : entries.length === 0 ? (
        <p>No address is held back: the team's forms email every address they are given.</p>
      ) : (
        <Listing columns={['Address', 'Why', 'When', 'Its email', { hidden: 'Actions' }]}>
          {entries.map((entry, index) => (
            <SuppressionRow
              key={entry.email}
              entry={entry}
              index={index}
              busy={action.busy}
              onLift={() => setLifting(entry)}
            />
          ))}
        </Listing>
      )}
      {next && (
        <MoreButton
          label="More addresses"
          next={next}
          action={action}
          load={(cursor) => call('listSuppressions', { query: { cursor } })}
          onPage={(page) =>
            setMore((shown) => ({
              suppressions: [...(shown?.suppressions ?? []), ...page.suppressions],
              next: page.next,
            }))
          }
        />
      )}
      {lifting && (
        <Confirm
          title={`Let emails go to ${lifting.email} again?`}
          confirm="Let emails go to it again"
          onCancel={() => setLifting(undefined)}
          onConfirm={async () => {
            const entry = lifting;
            setLifting(undefined);
            const done = await action.run(
              () => call('liftSuppression', { params: { email: entry.email } }),
              `${entry.email} gets emails from the team's forms again.`,
            );
            if (!done) return;
            const kept = (list: Suppression[]) => list.filter((each) => each.email !== entry.email);
            if (listed.data) {
              listed.setData({ ...listed.data, suppressions: kept(listed.data.suppressions) });
            }
            setMore((shown) => shown && { ...shown, suppressions: kept(shown.suppressions) });
            heading.current?.focus();
          }}
        >
          <p>
            The team's forms will send their notifications and auto-replies to this address again.
            Do it once the mailbox works again, or the person asks to hear from you.
          </p>
          <p>
            If an email to it bounces or is marked as spam again, it comes back on this list. Many
            bounces and complaints harm the standing of the service's mail with the mail service,
            for every form.
          </p>
        </Confirm>
      )}
    </section>
  );
}

/** One address of the list: why, when, its email's submission, and the lift. */
function SuppressionRow(props: {
  entry: Suppression;
  index: number;
  busy: boolean;
  onLift: () => void;
}) {
  const { entry, index } = props;
  return (
    <tr>
      <th scope="row" id={`suppressed-${index}`}>
        <Breakable text={entry.email} />
      </th>
      <td>{suppressionWhy(entry)}</td>
      <td>
        <When at={entry.at} />
      </td>
      <td>
        <Link to={paths.submission(entry.formId, entry.submissionId)}>The submission</Link>
      </td>
      <td>
        <button
          type="button"
          class="quiet"
          aria-describedby={`suppressed-${index}`}
          disabled={props.busy}
          onClick={props.onLift}
        >
          Let emails go to it again
        </button>
      </td>
    </tr>
  );
}
