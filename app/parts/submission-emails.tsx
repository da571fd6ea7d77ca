import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { useAction } from '../data.ts';
import {
  ccTroubles,
  clockWords,
  emailLines,
  fateWords,
  keepWatching,
  WATCH_EVERY_MS,
} from '../email-fate-model.ts';
import type { Form, Submission } from '../model.ts';
import { paths } from '../paths.ts';
import { useSession } from '../session.ts';
import { Outcome } from './feedback.tsx';
import { Link } from './link.tsx';

/** The Cc addresses that bounced or complained, under their email's line. */
function CcTroubles(props: { lines: string[] }) {
  if (props.lines.length === 0) return null;
  return (
    <ul>
      {props.lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

/**
 * What became of the submission's owner notification and auto-reply, in
 * words (docs/dashboard.md#a-submission): each that was due, with when it
 * became so; nothing when neither was. In the first minutes after the
 * submission came it reads them again by itself until they settle; later,
 * while one may still change (being sent, waiting for the receiving
 * server, delayed), "Check again" does.
 */
export function SubmissionEmails(props: { form: Form; submission: Submission }) {
  const { form, submission } = props;
  const formId = form.id;
  const submissionId = submission.id;
  const [reread, setReread] = useState<{ id: string; emails: Submission['emails'] }>();
  const [stopped, setStopped] = useState<string>();
  const action = useAction();
  const owner = useSession().role === 'owner';
  const emails = reread?.id === submissionId ? reread.emails : submission.emails;
  const watching = stopped !== submissionId && keepWatching({ ...submission, emails }, form);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each answer read (`emails`) schedules the next read
  useEffect(() => {
    if (!watching) return;
    const timer = setTimeout(() => {
      call('getSubmission', { params: { id: formId, submissionId } }).then(
        (found) => setReread({ id: submissionId, emails: found.emails }),
        // A quiet read: a failure (the submission deleted meanwhile) ends them, unsaid.
        () => setStopped(submissionId),
      );
    }, WATCH_EVERY_MS);
    return () => clearTimeout(timer);
  }, [formId, submissionId, emails, watching]);
  const lines = emailLines(emails);
  if (lines.length === 0) return null;
  const listLink = owner && lines.some((line) => line.outcome.status === 'suppressed');
  const unsettled = lines.some((line) => !line.settled);
  return (
    <section aria-labelledby="emails-title">
      <h2 id="emails-title">Emails</h2>
      <ul class="email-fates">
        {lines.map(({ name, outcome }) => (
          <li key={name}>
            <strong>{name}:</strong> {fateWords(outcome)} (
            <time dateTime={outcome.at} title={new Date(outcome.at).toLocaleString()}>
              {clockWords(outcome.at)}
            </time>
            )
            <CcTroubles lines={ccTroubles(outcome)} />
          </li>
        ))}
      </ul>
      {(listLink || unsettled) && (
        <p class="row">
          {listLink && (
            <Link to={paths.teamPrivacy()}>See the addresses the team's forms no longer email</Link>
          )}
          {unsettled && (
            <button
              type="button"
              disabled={action.busy}
              onClick={async () => {
                const found = await action.run(() =>
                  call('getSubmission', { params: { id: formId, submissionId } }),
                );
                if (found) setReread({ id: submissionId, emails: found.emails });
              }}
            >
              Check again
            </button>
          )}
        </p>
      )}
      <Outcome action={action} />
    </section>
  );
}
