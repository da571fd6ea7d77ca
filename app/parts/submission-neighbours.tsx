import type { Folder } from '../model.ts';
import { paths } from '../paths.ts';
import type { Neighbours } from '../submission-model.ts';
import { BackLink, Link } from './link.tsx';

/** The way back to the inbox (its folder and page), and the newer and older submission. */
export function SubmissionNeighbours(props: {
  formId: string;
  inbox: string;
  around: Neighbours | undefined;
  place: { folder: Folder; pageSize: number };
}) {
  const { formId, around, place } = props;
  return (
    <nav aria-label="Submission" class="around">
      <BackLink to={props.inbox} inline>
        Back to the inbox
      </BackLink>
      {around?.previous ? (
        <Link to={paths.submission(formId, around.previous, place)}>Newer</Link>
      ) : (
        <span />
      )}
      {around?.next ? (
        <Link to={paths.submission(formId, around.next, place)}>Older</Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
