import { useEffect } from 'preact/hooks';
import { answerRows, senderOf } from '../answers.ts';
import { ApiError } from '../api.ts';
import { isPending } from '../confirmation-model.ts';
import { openedSubmission } from '../inbox-return.ts';
import { FOLDERS, type Folder } from '../model.ts';
import { Confirm, KeysDialog } from '../parts/confirm.tsx';
import { Loading, Outcome, Problem } from '../parts/feedback.tsx';
import { BackLink } from '../parts/link.tsx';
import { useSubmissionActions } from '../parts/submission-actions.tsx';
import { AnswerList } from '../parts/submission-answers.tsx';
import { useSubmissionReads } from '../parts/submission-data.tsx';
import { SubmissionDelivery } from '../parts/submission-delivery.tsx';
import { SubmissionEmails } from '../parts/submission-emails.tsx';
import { REPLY_LINK_ID, SubmissionHeader } from '../parts/submission-header.tsx';
import {
  PENDING_SUBMISSION_KEYS,
  SUBMISSION_KEYS,
  useReturningFocus,
  useSubmissionKeys,
} from '../parts/submission-keys.tsx';
import { SubmissionNeighbours } from '../parts/submission-neighbours.tsx';
import { SubmissionOrigin } from '../parts/submission-origin.tsx';
import { paths, reasonOf } from '../paths.ts';
import { navigate } from '../router.ts';

/**
 * One submission, titled by its sender: answers by the form's fields (files
 * at theirs), problems where the checks found them, its webhook delivery,
 * what became of its emails, where it came from, and the one before and after it in the folder, by
 * link or by key. Spam and delete open the next one. Opening it marks it
 * read (the API's GET does not): docs/dashboard.md#a-submission.
 */
export function SubmissionView(props: {
  formId: string;
  submissionId: string;
  query: URLSearchParams;
}) {
  const { formId, submissionId, query } = props;
  const folder = (
    FOLDERS.includes(query.get('folder') as Folder) ? query.get('folder') : 'all'
  ) as Folder;
  const place = {
    folder,
    reason: reasonOf(query, folder),
    pageSize: Number(query.get('pageSize')) || 15,
  };
  const reads = useSubmissionReads(formId, submissionId, place);
  const { around, current } = reads;
  const dialog = useReturningFocus<'delete' | 'keys'>();
  const inbox = paths.inbox(formId, { ...place, page: around?.page ?? 1 });
  const open = (id: string | undefined) => id && navigate(paths.submission(formId, id, place));
  const act = useSubmissionActions({ formId, submissionId, reads, inbox, open });

  // The inbox gone back to puts focus on this submission's row.
  useEffect(() => openedSubmission(formId, submissionId), [formId, submissionId]);
  const shownSubmission = current?.submission;
  const replyTo = current && senderOf(current.submission.data, current.form.fields).email;
  // Waiting for confirmation: its keys of star, read and spam do nothing; Delete still applies.
  const triageable = shownSubmission !== undefined && !isPending(shownSubmission);

  useSubmissionKeys(
    {
      next: () => open(around?.next),
      previous: () => open(around?.previous),
      back: () => navigate(inbox),
      star: () => triageable && void act.flag({ starred: !shownSubmission.starred }),
      read: () => triageable && void act.flag({ read: true }),
      unread: () => triageable && void act.flag({ read: false }),
      // The Reply link itself, so the key does exactly what a click does.
      reply: replyTo ? () => document.getElementById(REPLY_LINK_ID)?.click() : undefined,
      spam: () => triageable && void act.spam(),
      remove: () => current && !act.busy && dialog.show('delete'),
      undo: () => act.outcome.undo?.(),
      help: () => dialog.show('keys'),
    },
    dialog.open === undefined,
  );

  if (reads.error) {
    const gone = reads.error instanceof ApiError && reads.error.status === 404;
    return (
      <main id="main">
        {gone ? (
          <div role="alert">
            <h2>Not found</h2>
            <p>This submission (or its form) has been deleted.</p>
          </div>
        ) : (
          <Problem error={reads.error} retry={reads.reload} />
        )}
        <BackLink to={paths.inbox(formId, place)}>Back to the inbox</BackLink>
      </main>
    );
  }
  if (!current)
    return (
      <main id="main">
        <Loading label="Loading the submission…" />
      </main>
    );

  const { form, submission } = current;
  return (
    <main id="main" class="submission">
      <SubmissionNeighbours formId={formId} inbox={inbox} around={around} place={place} />
      <SubmissionHeader
        submission={submission}
        sender={senderOf(submission.data, form.fields)}
        formName={form.name}
        busy={act.busy}
        tools={{
          star: () => void act.flag({ starred: !submission.starred }),
          read: (read) => void act.flag({ read }),
          spam: () => void act.spam(),
          remove: () => dialog.show('delete'),
          keys: () => dialog.show('keys'),
        }}
      />
      <Outcome action={act.outcome} />
      <AnswerList
        rows={answerRows(submission, form.fields)}
        formName={form.name}
        createdAt={submission.createdAt}
        download={act.download}
      />
      <SubmissionEmails form={form} submission={submission} />
      <SubmissionDelivery formId={formId} submissionId={submissionId} />
      <SubmissionOrigin submission={submission} dontStoreIp={form.dontStoreIp} pages={form.pages} />
      {dialog.open === 'delete' && (
        <Confirm
          title="Delete this submission?"
          confirm="Delete"
          onConfirm={() => {
            dialog.close();
            void act.remove();
          }}
          onCancel={dialog.close}
        >
          <p>It and its files are deleted for good.</p>
        </Confirm>
      )}
      {dialog.open === 'keys' && (
        <KeysDialog
          keys={isPending(submission) ? PENDING_SUBMISSION_KEYS : SUBMISSION_KEYS}
          onClose={dialog.close}
        />
      )}
    </main>
  );
}
