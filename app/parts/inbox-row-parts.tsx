import type { ComponentChildren } from 'preact';
import { isPending, waitedWords } from '../confirmation-model.ts';
import { SPAM_REASON_WORDS } from '../inbox-model.ts';
import type { Submission } from '../model.ts';
import { When } from '../time.tsx';
import type { Selection } from './inbox-selection.ts';
import { hasInfectedFile, InfectedMark } from './infected-mark.tsx';
import { Link } from './link.tsx';

/**
 * What the inbox's two tables share (the rows, `inbox-table.tsx`, and the
 * answers, `inbox-answer-table.tsx`), so selection, star, the unread mark
 * and the chips read and behave the same in both.
 */

/** The header cells of the selection and the star columns. */
export function SelectAndStarHeads(props: { items: Submission[]; selection: Selection }) {
  const { items, selection } = props;
  return (
    <>
      <th scope="col">
        <input
          type="checkbox"
          aria-label="Select all on this page"
          checked={items.length > 0 && items.every((each) => selection.has(each.id))}
          onChange={(event) => selection.setPage(event.currentTarget.checked)}
        />
      </th>
      <th scope="col">
        <span class="visually-hidden">Starred</span>
      </th>
    </>
  );
}

/** A row's box and star, named by the row's `name` for a screen reader. */
export function SelectAndStarCells(props: {
  submission: Submission;
  name: string;
  selected: boolean;
  onToggle: (range: boolean) => void;
  onStar: () => void;
}) {
  const { submission, name } = props;
  return (
    <>
      <td>
        <input
          type="checkbox"
          checked={props.selected}
          aria-label={`Select: ${name}`}
          // The browser's own toggle and the selection's agree: the box shows what is selected.
          onClick={(event) => props.onToggle(event.shiftKey)}
        />
      </td>
      <td>
        {/* Waiting for confirmation takes no star (docs/dashboard.md#confirm-by-email). */}
        {!isPending(submission) && (
          <button
            type="button"
            class="star"
            aria-pressed={submission.starred}
            aria-label={`Star: ${name}`}
            onClick={props.onStar}
          >
            <span aria-hidden="true">{submission.starred ? '★' : '☆'}</span>
          </button>
        )}
      </td>
    </>
  );
}

/** The row's link to the submission, saying "Unread" first to a screen reader. */
export function SubmissionLink(props: {
  submission: Submission;
  href: string;
  children: ComponentChildren;
}) {
  return (
    <Link to={props.href} class="preview">
      {!props.submission.read && !isPending(props.submission) && (
        <span class="visually-hidden">Unread: </span>
      )}
      {props.children}
    </Link>
  );
}

/** Why it is spam, a test, invalid answers: nothing when none applies. */
export function RowChips(props: { submission: Submission }) {
  const { submission } = props;
  const reason = submission.isSpam && submission.spamReason;
  const infected = hasInfectedFile(submission);
  if (!reason && !submission.isTest && !submission.data._invalid && !infected) return null;
  return (
    <span class="chips">
      {infected && <InfectedMark />}
      {reason && (
        <span class="badge spam">
          <span class="visually-hidden">Spam because: </span>
          {SPAM_REASON_WORDS[reason]}
        </span>
      )}
      {submission.isTest && <span class="badge test">test</span>}
      {submission.data._invalid && <span class="badge invalid">invalid answers</span>}
    </span>
  );
}

/** A row's class: unread in bold; one waiting for confirmation is neither read nor unread. */
export const rowClass = (submission: Submission, focused: boolean) =>
  `${submission.read || isPending(submission) ? 'read' : 'unread'}${focused ? ' focused' : ''}`;

/**
 * When it came, relative ("3 minutes ago"); one waiting for confirmation
 * says how long it has waited ("waiting 3 hr"), the exact time on hover.
 */
export function RowTime(props: { submission: Submission }) {
  const { submission } = props;
  const since = isPending(submission) && submission.confirmation?.requestedAt;
  if (!since) return <When at={submission.createdAt} />;
  return (
    <time dateTime={since} title={`Waiting since ${new Date(since).toLocaleString()}`}>
      waiting {waitedWords(since, Date.now(), 'short')}
    </time>
  );
}
