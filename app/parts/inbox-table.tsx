import type { RefObject } from 'preact';
import { rowName, rowWords, SPAM_REASON_WORDS } from '../inbox-model.ts';
import type { FieldDefinition, Submission } from '../model.ts';
import { When } from '../time.tsx';
import type { Selection } from './inbox-selection.ts';
import { Link } from './link.tsx';

/**
 * Submissions as rows that say who and what (docs/dashboard.md#the-inbox):
 * the inbox's page and the search's matches alike.
 */
export function SubmissionTable(props: {
  caption: string;
  items: Submission[];
  fields: FieldDefinition[] | null;
  selection: Selection;
  focused: number | undefined;
  rows: RefObject<HTMLTableSectionElement | null>;
  hrefOf: (submission: Submission) => string;
  onStar: (submission: Submission) => void;
}) {
  const { items, selection } = props;
  return (
    <table class="submissions">
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
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
          <th scope="col">Submission</th>
        </tr>
      </thead>
      <tbody ref={props.rows}>
        {items.map((submission, index) => (
          <Row
            key={submission.id}
            submission={submission}
            fields={props.fields}
            href={props.hrefOf(submission)}
            selected={selection.has(submission.id)}
            focused={props.focused === index}
            onToggle={(range) => selection.toggle(index, range)}
            onStar={() => props.onStar(submission)}
          />
        ))}
      </tbody>
    </table>
  );
}

function Row(props: {
  submission: Submission;
  fields: FieldDefinition[] | null;
  href: string;
  selected: boolean;
  focused: boolean;
  onToggle: (range: boolean) => void;
  onStar: () => void;
}) {
  const { submission } = props;
  const words = rowWords(submission, props.fields);
  const { sender, who, what } = words;
  const reason = submission.isSpam && submission.spamReason;
  const preview = (
    <Link to={props.href} class="preview">
      {!submission.read && <span class="visually-hidden">Unread: </span>}
      {what}
    </Link>
  );
  return (
    <tr
      class={`${submission.read ? 'read' : 'unread'}${props.focused ? ' focused' : ''}`}
      aria-selected={props.selected}
    >
      <td>
        <input
          type="checkbox"
          checked={props.selected}
          aria-label={`Select: ${rowName(words)}`}
          // The browser's own toggle and the selection's agree: the box shows what is selected.
          onClick={(event) => props.onToggle(event.shiftKey)}
        />
      </td>
      <td>
        <button
          type="button"
          class="star"
          aria-pressed={submission.starred}
          aria-label={`Star: ${rowName(words)}`}
          onClick={props.onStar}
        >
          <span aria-hidden="true">{submission.starred ? '★' : '☆'}</span>
        </button>
      </td>
      <td class="summary">
        {/* Without a name or email the answers head the row: they say what each one is. */}
        <div class={who ? 'row-head' : 'row-head answers-first'}>
          {who ? (
            <span class="from">
              {sender.name && <span class="name">{sender.name}</span>}
              {sender.email && <span class="email">{sender.email}</span>}
            </span>
          ) : (
            preview
          )}
          <When at={submission.createdAt} />
        </div>
        {who && preview}
        {(reason || submission.isTest || submission.data._invalid) && (
          <span class="chips">
            {reason && (
              <span class="badge spam">
                <span class="visually-hidden">Spam because: </span>
                {SPAM_REASON_WORDS[reason]}
              </span>
            )}
            {submission.isTest && <span class="badge test">test</span>}
            {submission.data._invalid && <span class="badge invalid">invalid answers</span>}
          </span>
        )}
      </td>
    </tr>
  );
}
