import { replyHref, type Sender } from '../answers.ts';
import { confirmationState, isPending } from '../confirmation-model.ts';
import type { Submission } from '../model.ts';

/** What the page's buttons do; spam and delete then open the next submission. */
export interface SubmissionTools {
  star: () => void;
  /** Marks it read (`true`) or unread. */
  read: (read: boolean) => void;
  spam: () => void;
  remove: () => void;
  keys: () => void;
}

/** The Reply link, which the `R` key clicks. */
export const REPLY_LINK_ID = 'reply';

/**
 * The page's title, its sender's name, else address, else "Submission of
 * <date>" (docs/dashboard.md#a-submission), with the way to reply and the
 * page's buttons.
 */
export function SubmissionHeader(props: {
  submission: Submission;
  sender: Sender;
  formName: string;
  tools: SubmissionTools;
  busy: boolean;
}) {
  const { submission, sender, tools } = props;
  // Waiting for confirmation: only Delete applies (docs/dashboard.md#confirm-by-email).
  const triageable = !isPending(submission);
  const title =
    sender.name ??
    sender.email ??
    `Submission of ${new Date(submission.createdAt).toLocaleString()}`;
  return (
    <>
      <div class="title">
        <h2>{title}</h2>
        {submission.isTest && <span class="badge test">test</span>}
        {submission.isSpam && <span class="badge spam">spam</span>}
      </div>
      {sender.name && sender.email && <p class="sender">{sender.email}</p>}
      <ConfirmationLine submission={submission} />
      <div class="tools">
        {sender.email && (
          <a
            class="button"
            id={REPLY_LINK_ID}
            href={replyHref(sender.email, props.formName)}
            aria-keyshortcuts="Shift+R"
          >
            Reply{' '}
            <span class="key" aria-hidden="true">
              R
            </span>
          </a>
        )}
        {triageable && (
          <>
            <button type="button" aria-pressed={submission.starred} onClick={tools.star}>
              {submission.starred ? 'Unstar' : 'Star'}
            </button>
            <button type="button" onClick={() => tools.read(!submission.read)}>
              {submission.read ? 'Mark unread' : 'Mark read'}
            </button>
            <button type="button" disabled={props.busy} onClick={tools.spam}>
              {submission.isSpam ? 'Not spam' : 'Spam'}
            </button>
          </>
        )}
        <button type="button" class="danger" disabled={props.busy} onClick={tools.remove}>
          Delete
        </button>
        <button type="button" class="quiet" onClick={tools.keys}>
          Keyboard shortcuts
        </button>
      </div>
    </>
  );
}

/**
 * Its confirmation by email, when its form asked for one: "Confirmed at …",
 * or "Waiting for confirmation since …" with how long, and what waiting means.
 */
function ConfirmationLine(props: { submission: Submission }) {
  const said = confirmationState(props.submission.confirmation);
  if (!said) return null;
  const at = said.state === 'pending' ? said.since : said.at;
  const time = <time dateTime={at}>{new Date(at).toLocaleString()}</time>;
  if (said.state === 'confirmed')
    return (
      <p class="confirmation confirmed">
        {said.lead} {time}, by its visitor’s click on the link emailed to them.
      </p>
    );
  return (
    <div class="confirmation pending" role="note">
      <p class="confirmation-line">
        <strong>
          {said.lead} {time}
        </strong>{' '}
        ({said.waited}).
      </p>
      <p class="confirmation-line">
        Its visitor was sent an email with a link to confirm their address. Until they press it,
        this answer is not sent on or counted; the link expires 48 hours after the answer came. Only
        Delete applies to it.
      </p>
    </div>
  );
}
