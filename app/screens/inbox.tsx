import { useContext, useEffect, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { type Query, useQuery } from '../data.ts';
import { readForm } from '../form-read.ts';
import { FOLDER_NAMES } from '../inbox-model.ts';
import { type InboxView, useInboxView } from '../inbox-view.ts';
import type { Folder, Form, SpamReason, SubmissionPage } from '../model.ts';
import { FOLDERS } from '../model.ts';
import { Problem, ScreenPending } from '../parts/feedback.tsx';
import { FORM_TITLE_ID, WorkspaceContext } from '../parts/form-workspace.tsx';
import { FolderLinks, SpamReasonLinks } from '../parts/inbox-folders.tsx';
import { InboxList } from '../parts/inbox-list.tsx';
import { PAGE_SIZES, Pager } from '../parts/inbox-pager.tsx';
import { SearchBox } from '../parts/inbox-search-box.tsx';
import { submissionsAndTests } from '../parts/submission-count.tsx';
import { DEFAULT_PAGE_SIZE, paths, reasonOf } from '../paths.ts';
import { navigate } from '../router.ts';
import { SearchResults } from './search-results.tsx';
import { SharePanel } from './share.tsx';

type Page = SubmissionPage & { folderCounts: Record<Folder, number> };
/** A page read, with the place it was read for (the URL may have moved on while it loads). */
type Shown = {
  form: Form;
  list: Page;
  place: { folder: Folder; reason?: SpamReason; page: number; pageSize: number };
};

/** How often the inbox looks for new submissions (and whenever the window regains focus). */
const POLL_MS = 15_000;

/** Where the inbox stands, from its query string (anything unknown is the default). */
function placeOf(query: URLSearchParams) {
  const folder = (
    FOLDERS.includes(query.get('folder') as Folder) ? query.get('folder') : 'all'
  ) as Folder;
  const page = Math.max(1, Number(query.get('page')) || 1);
  const pageSize = PAGE_SIZES.includes(Number(query.get('pageSize')))
    ? Number(query.get('pageSize'))
    : DEFAULT_PAGE_SIZE;
  return { folder, reason: reasonOf(query, folder), page, pageSize, q: query.get('q') ?? '' };
}

/**
 * New submissions: counted every 15 s and when the window regains focus,
 * not shown until asked, so nothing moves under the reader.
 */
function useFreshCount(
  formId: string,
  place: { folder: Folder; reason?: SpamReason },
  list: Page | undefined,
  on: boolean,
) {
  const { folder, reason } = place;
  const [fresh, setFresh] = useState(0);
  useEffect(() => {
    setFresh(0);
    if (!list || !on) return;
    // A look still under way when the folder or list changes is aborted: its count was of those.
    const looks = new AbortController();
    const look = async () => {
      const latest = await call('listSubmissions', {
        params: { id: formId },
        query: { filter: folder, reason, pageSize: 1 },
        signal: looks.signal,
      }).catch(() => undefined);
      if (latest && !looks.signal.aborted && latest.total > list.total)
        setFresh(latest.total - list.total);
    };
    const timer = setInterval(look, POLL_MS);
    window.addEventListener('focus', look);
    return () => {
      looks.abort();
      clearInterval(timer);
      window.removeEventListener('focus', look);
    };
  }, [list, formId, folder, reason, on]);
  return fresh;
}

/**
 * A form opened (from the list of forms, a link, the next page) leaves
 * nothing focused: focus goes to the form's heading, so a screen reader says
 * which form it is and the keys start from the top (`j` the first row).
 * A row focused already (back from a submission) keeps it.
 */
function useOpeningFocus(shown: boolean) {
  useEffect(() => {
    if (!shown) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    document.getElementById(FORM_TITLE_ID)?.focus();
  }, [shown]);
}

/** A form's inbox: folders, a page of submissions to triage, search, new ones as they come. */
export function Inbox(props: { formId: string; query: URLSearchParams }) {
  const { formId } = props;
  const { folder, reason, page, pageSize, q } = placeOf(props.query);
  const [help, setHelp] = useState(false);
  const [view, setView] = useInboxView(formId);
  const { testsSent } = useContext(WorkspaceContext);

  // A page of another folder, page or size replaces the read under way (docs/dashboard.md#data-layer):
  // a slow answer for the page left never shows on the one opened since.
  const shown: Query<Shown> = useQuery(
    // A test submission sent from the workspace's menu is a reason to read again.
    `${formId}|${folder}|${reason}|${page}|${pageSize}|${testsSent}`,
    async (signal): Promise<Shown> => {
      const known = shown.data?.form;
      const [form, list] = await Promise.all([
        known?.id === formId ? known : readForm(formId, signal),
        call('listSubmissions', {
          params: { id: formId },
          query: { filter: folder, reason, page, pageSize },
          signal,
        }),
      ]);
      return { form, list, place: { folder, reason, page, pageSize } };
    },
  );
  const form = shown.data?.form.id === formId ? shown.data.form : undefined;
  const list = form && shown.data?.list;
  useOpeningFocus(Boolean(list));
  const fresh = useFreshCount(formId, shown.data?.place ?? { folder, reason }, list, !q);
  if (!form || !list)
    return <ScreenPending error={shown.error} retry={shown.reload} label="Loading submissions…" />;

  // The rows are those of the place read: until the next page comes, they act as what they are.
  const place = shown.data!.place;
  const counts = list.folderCounts;
  const nothingYet = counts.all + counts.spam + counts.pending === 0;
  return (
    <main id="main" class="inbox">
      {/* A read again that failed (after an action, or of another page): the rows stay. */}
      {shown.error && <Problem error={shown.error} retry={shown.reload} />}
      <div class="tools">
        <p>{submissionsAndTests(list.submissionCount, list.testCount)}</p>
        {fresh > 0 && !q && (
          <button
            type="button"
            class="fresh"
            onClick={() => {
              navigate(paths.inbox(formId, { folder, reason, page: 1, pageSize }));
              void shown.reload();
            }}
          >
            {fresh} new {fresh === 1 ? 'submission' : 'submissions'}: show
          </button>
        )}
        {!nothingYet && <ViewSwitch view={view} setView={setView} />}
        {!nothingYet && (
          <button type="button" class="quiet keys-button" onClick={() => setHelp(true)}>
            Keyboard shortcuts
          </button>
        )}
      </div>
      <FolderLinks
        formId={formId}
        folder={folder}
        pageSize={pageSize}
        counts={counts}
        confirming={Boolean(form.confirmEmail)}
      />
      {folder === 'spam' && !q && counts.spam > 0 && (
        <SpamReasonLinks
          formId={formId}
          reason={reason}
          pageSize={pageSize}
          counts={list.reasonCounts}
        />
      )}
      <SearchBox formId={formId} folder={folder} q={q} />
      {q ? (
        <SearchResults
          key={`${formId}|${folder}|${q}`}
          form={form}
          folder={folder}
          q={q}
          pageSize={pageSize}
          help={help}
          setHelp={setHelp}
          view={view}
          setView={setView}
          onChanged={shown.reload}
        />
      ) : nothingYet ? (
        <section>
          <h2>No submissions yet</h2>
          <p>Post to this form from a website, the hosted page or the embed:</p>
          <SharePanel form={form} />
        </section>
      ) : (
        <InboxList
          // Each place its own list: its selection and notices go when the person moves on.
          key={`${formId}|${place.folder}|${place.reason}|${place.page}|${place.pageSize}`}
          formId={formId}
          folder={place.folder}
          reason={place.reason}
          items={list.items}
          fields={form.fields}
          caption={`${FOLDER_NAMES[place.folder]}: page ${list.page} of ${list.pageCount}`}
          hrefOf={(each) => paths.submission(formId, each.id, place)}
          onOpen={(each) => navigate(paths.submission(formId, each.id, place))}
          reload={shown.reload}
          matching={{ asOf: list.asOf, total: list.total }}
          help={help}
          setHelp={setHelp}
          view={view}
          setView={setView}
          footer={<Pager formId={formId} folder={place.folder} reason={place.reason} list={list} />}
        >
          {list.items.length === 0 && (
            <p>
              No submissions in {FOLDER_NAMES[place.folder]}
              {place.reason ? ' for this reason' : ''}.
            </p>
          )}
        </InboxList>
      )}
    </main>
  );
}

/** Rows (who and what) or a table (a column per question), kept per form in this browser. */
function ViewSwitch(props: { view: InboxView; setView: (view: InboxView) => void }) {
  const { view, setView } = props;
  return (
    <fieldset class="view-switch">
      <legend class="visually-hidden">Show submissions as</legend>
      {(['rows', 'table'] as const).map((kind) => (
        <button
          key={kind}
          type="button"
          class="quiet"
          aria-pressed={view.view === kind}
          onClick={() => setView({ ...view, view: kind })}
        >
          {kind === 'rows' ? 'Rows' : 'Table'}
        </button>
      ))}
    </fieldset>
  );
}
