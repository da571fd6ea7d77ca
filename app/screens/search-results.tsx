import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { LatestRead } from '../data.ts';
import type { Folder, Submission } from '../model.ts';
import { Problem } from '../parts/feedback.tsx';
import { Link } from '../parts/link.tsx';
import { paths } from '../paths.ts';
import { When } from '../time.tsx';

/** How many matches a search gathers before it waits to be asked for more. */
const GATHER = 50;

/**
 * Search results as they come: the service reads 200 submissions a call,
 * so the search goes on call after call (saying how far it has looked)
 * until it has a page of matches or has read them all.
 */
export function SearchResults(props: {
  formId: string;
  folder: Folder;
  q: string;
  pageSize: number;
}) {
  const [found, setFound] = useState<Submission[]>([]);
  const [searched, setSearched] = useState(0);
  const [total, setTotal] = useState<number>();
  const [next, setNext] = useState<string | null | undefined>(undefined);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>();

  // One search at a time: a new query (or the screen's end) aborts the loop under way, so
  // its later pages never join the matches of the query that replaced it.
  const searches = useRef<LatestRead>(undefined);
  searches.current ??= new LatestRead();

  const run = (from: string | undefined, already: Submission[], looked: number) => {
    setRunning(true);
    setError(undefined);
    return searches.current!.run(
      async (signal) => {
        let cursor = from;
        let matches = already;
        let count = looked;
        do {
          const answer = await call('searchSubmissions', {
            params: { id: props.formId },
            query: { q: props.q, folder: props.folder, cursor },
            signal,
          });
          if (signal.aborted) return;
          matches = [...matches, ...answer.items];
          count += answer.searched;
          setFound(matches);
          setSearched(count);
          setTotal(answer.total);
          setNext(answer.next);
          cursor = answer.next ?? undefined;
        } while (cursor && matches.length - already.length < GATHER);
      },
      {
        ok: () => setRunning(false),
        failed: (failure) => {
          setError(failure);
          setRunning(false);
        },
      },
    );
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new form, folder or query starts a new search
  useEffect(() => {
    setFound([]);
    setSearched(0);
    setNext(undefined);
    void run(undefined, [], 0);
    return () => searches.current!.stop();
  }, [props.formId, props.folder, props.q]);

  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title">
        {found.length} {found.length === 1 ? 'match' : 'matches'} for “{props.q}”
      </h2>
      <p role="status">
        {running ? 'Searching… ' : ''}
        {/* Everything stored, tests and spam among it: not "submissions" (docs/dashboard.md#counts). */}
        Searched {searched.toLocaleString()} of {(total ?? 0).toLocaleString()}, tests and spam
        included.
      </p>
      {error ? (
        <Problem error={error} retry={() => run(next ?? undefined, found, searched)} />
      ) : null}
      <ul class="results">
        {found.map((submission) => (
          <li key={submission.id}>
            <Link
              to={paths.submission(props.formId, submission.id, {
                folder: props.folder,
                pageSize: props.pageSize,
              })}
              class="preview"
            >
              {submission.preview || '(no answers)'}
            </Link>{' '}
            <When at={submission.createdAt} />
          </li>
        ))}
      </ul>
      {next && !running && (
        <button type="button" onClick={() => run(next, found, searched)}>
          Search further
        </button>
      )}
      <p>
        <Link to={paths.inbox(props.formId, { folder: props.folder, pageSize: props.pageSize })}>
          Clear the search
        </Link>
      </p>
    </section>
  );
}
