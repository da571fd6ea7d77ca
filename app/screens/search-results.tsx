import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { LatestRead } from '../data.ts';
import { FOLDER_NAMES, matchesWords } from '../inbox-model.ts';
import type { InboxView } from '../inbox-view.ts';
import type { Folder, Form, Submission } from '../model.ts';
import { Problem } from '../parts/feedback.tsx';
import { InboxList } from '../parts/inbox-list.tsx';
import { Link } from '../parts/link.tsx';
import { paths } from '../paths.ts';
import { navigate } from '../router.ts';

/** How many matches a search gathers before it waits to be asked for more. */
const GATHER = 50;

interface Found {
  matches: Submission[];
  searched: number;
  total: number | undefined;
  next: string | null | undefined;
}

const NOTHING: Found = { matches: [], searched: 0, total: undefined, next: undefined };

/**
 * A form's search, gathered as it comes: the service reads 200 submissions
 * a call, so the search goes on call after call (saying how far it has
 * looked) until it has 50 matches or has read them all. One search at a
 * time: a new query (or the screen's end) aborts the loop under way, so its
 * later pages never join the matches of the query that replaced it.
 */
function useSearch(formId: string, folder: Folder, q: string) {
  const [found, setFound] = useState<Found>(NOTHING);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>();
  const searches = useRef<LatestRead>(undefined);
  searches.current ??= new LatestRead();

  const run = (from: Found) => {
    setRunning(true);
    setError(undefined);
    return searches.current!.run(
      async (signal) => {
        let now = from;
        do {
          const answer = await call('searchSubmissions', {
            params: { id: formId },
            query: { q, folder, cursor: now.next ?? undefined },
            signal,
          });
          if (signal.aborted) return;
          now = {
            matches: [...now.matches, ...answer.items],
            searched: now.searched + answer.searched,
            total: answer.total,
            next: answer.next,
          };
          setFound(now);
        } while (now.next && now.matches.length - from.matches.length < GATHER);
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
    setFound(NOTHING);
    void run(NOTHING);
    return () => searches.current!.stop();
  }, [formId, folder, q]);

  return {
    found,
    running,
    error,
    /** The next 50 matches. */
    further: () => run(found),
    /** From the start again: after a change, the matches as they are now. */
    again: () => run(NOTHING),
  };
}

/** Search results are the inbox: the same rows, selection, keys and bulk actions on the matches. */
export function SearchResults(props: {
  form: Form;
  folder: Folder;
  q: string;
  pageSize: number;
  help: boolean;
  setHelp: (open: boolean) => void;
  view: InboxView;
  setView: (view: InboxView) => void;
  /** After a change: the inbox's folder counts read again. */
  onChanged: () => Promise<unknown>;
}) {
  const { form, folder, q, pageSize, onChanged } = props;
  const search = useSearch(form.id, folder, q);
  const { found, running, error } = search;
  const place = { folder, pageSize };
  return (
    <section aria-labelledby="results-title">
      <InboxList
        formId={form.id}
        folder={folder}
        items={found.matches}
        fields={form.fields}
        caption={`Matches for “${q}” in ${FOLDER_NAMES[folder]}`}
        hrefOf={(each) => paths.submission(form.id, each.id, place)}
        onOpen={(each) => navigate(paths.submission(form.id, each.id, place))}
        reload={() => Promise.all([search.again(), onChanged()])}
        help={props.help}
        setHelp={props.setHelp}
        view={props.view}
        setView={props.setView}
        footer={
          <>
            {found.next && !running && (
              <button type="button" onClick={search.further}>
                Search further
              </button>
            )}
            <p>
              <Link to={paths.inbox(form.id, place)}>Clear the search</Link>
            </p>
          </>
        }
      >
        <h2 id="results-title">{matchesWords(found.matches.length, folder, q)}</h2>
        {/* Everything stored, tests and spam among it: not "submissions" (docs/dashboard.md#counts). */}
        <p>
          {running ? 'Searching… ' : ''}
          Searched {found.searched.toLocaleString()} of {(found.total ?? 0).toLocaleString()}, tests
          and spam included.
        </p>
        {/* Said once the search stops, not at each page it reads: a long search does not talk over itself. */}
        <p role="status" class="visually-hidden">
          {running ? '' : matchesWords(found.matches.length, folder, q)}
        </p>
        {error ? <Problem error={error} retry={search.further} /> : null}
      </InboxList>
    </section>
  );
}
