import { replyHref, type Sender } from '../answers.ts';
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
        <button type="button" aria-pressed={submission.starred} onClick={tools.star}>
          {submission.starred ? 'Unstar' : 'Star'}
        </button>
        <button type="button" onClick={() => tools.read(!submission.read)}>
          {submission.read ? 'Mark unread' : 'Mark read'}
        </button>
        <button type="button" disabled={props.busy} onClick={tools.spam}>
          {submission.isSpam ? 'Not spam' : 'Spam'}
        </button>
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
