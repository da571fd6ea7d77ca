import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { type Query, useAction, useQuery } from '../data.ts';
import type { Folder, Form, Submission, SubmissionPage } from '../model.ts';
import { FOLDERS } from '../model.ts';
import { Confirm } from '../parts/confirm.tsx';
import { Outcome, ScreenPending } from '../parts/feedback.tsx';
import { WorkspaceContext } from '../parts/form-workspace.tsx';
import { KeyHelp, useInboxKeys } from '../parts/inbox-keys.tsx';
import { Link } from '../parts/link.tsx';
import { submissionsAndTests } from '../parts/submission-count.tsx';
import { DEFAULT_PAGE_SIZE, paths } from '../paths.ts';
import { navigate } from '../router.ts';
import { When } from '../time.tsx';
import { SearchResults } from './search-results.tsx';
import { SharePanel } from './share.tsx';

type Page = SubmissionPage & { folderCounts: Record<Folder, number> };
type Shown = { form: Form; list: Page };

/** How often the inbox looks for new submissions (and whenever the window regains focus). */
const POLL_MS = 15_000;
const PAGE_SIZES = [DEFAULT_PAGE_SIZE, 25, 50, 100];

const FOLDER_NAMES: Record<Folder, string> = {
  all: 'All',
  unread: 'Unread',
  starred: 'Starred',
  spam: 'Spam',
};

/** A form's inbox: folders, a page of submissions, triage in bulk, search, new ones as they come. */
export function Inbox(props: { formId: string; query: URLSearchParams }) {
  const { formId, query } = props;
  const folder = (
    FOLDERS.includes(query.get('folder') as Folder) ? query.get('folder') : 'all'
  ) as Folder;
  const page = Math.max(1, Number(query.get('page')) || 1);
  const pageSize = PAGE_SIZES.includes(Number(query.get('pageSize')))
    ? Number(query.get('pageSize'))
    : DEFAULT_PAGE_SIZE;
  const q = query.get('q') ?? '';

  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const [anchor, setAnchor] = useState<number>();
  const [fresh, setFresh] = useState(0);
  const [confirming, setConfirming] = useState<string[] | 'all'>();
  const [help, setHelp] = useState(false);
  const rows = useRef<HTMLTableSectionElement>(null);
  const action = useAction();
  const { busy } = action;
  const { testsSent } = useContext(WorkspaceContext);

  // A page of another folder, page or size replaces the read under way (docs/dashboard.md#data-layer):
  // a slow answer for the page left never shows on the one opened since.
  const shown: Query<Shown> = useQuery(
    // A test submission sent from the workspace's menu is a reason to read again.
    `${formId}|${folder}|${page}|${pageSize}|${testsSent}`,
    async (signal): Promise<Shown> => {
      const known = shown.data?.form;
      const [form, list] = await Promise.all([
        known?.id === formId ? known : call('getForm', { params: { id: formId }, signal }),
        call('listSubmissions', {
          params: { id: formId },
          query: { filter: folder, page, pageSize },
          signal,
        }),
      ]);
      return { form, list };
    },
  );
  const { error } = shown;
  const form = shown.data?.form.id === formId ? shown.data.form : undefined;
  const list = form && shown.data?.list;
  const load = shown.reload;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new answer is what resets the selection
  useEffect(() => {
    setFresh(0);
    setSelected(new Set());
    setAllMatching(false);
  }, [shown.data]);

  // New submissions: counted, not shown until asked, so nothing moves under the reader.
  useEffect(() => {
    if (!list || q) return;
    const look = async () => {
      const latest = await call('listSubmissions', {
        params: { id: formId },
        query: { filter: folder, pageSize: 1 },
      }).catch(() => undefined);
      if (latest && latest.total > list.total) setFresh(latest.total - list.total);
    };
    const timer = setInterval(look, POLL_MS);
    window.addEventListener('focus', look);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', look);
    };
  }, [list, formId, folder, q]);

  const items = list?.items ?? [];
  const toggle = (index: number, range: boolean) => {
    const next = new Set(selected);
    const id = items[index]!.id;
    const on = !next.has(id);
    if (range && anchor !== undefined) {
      const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
      for (let i = from; i <= to; i++) {
        if (on) next.add(items[i]!.id);
        else next.delete(items[i]!.id);
      }
    } else if (on) next.add(id);
    else next.delete(id);
    setAnchor(index);
    setSelected(next);
    setAllMatching(false);
  };

  const target = () =>
    allMatching ? { filter: folder, asOf: list!.asOf } : { ids: [...selected] };

  const counted = (count: number, done: string) =>
    `${count} ${count === 1 ? 'submission' : 'submissions'} ${done}`;

  const change = (
    flags: Partial<Pick<Submission, 'read' | 'starred' | 'isSpam'>>,
    ids?: string[],
  ) =>
    action.run(
      async () => {
        const answer = await call('updateSubmissions', {
          params: { id: formId },
          body: { target: ids ? { ids } : target(), ...flags },
        });
        await load();
        return answer;
      },
      (answer) => counted(answer.count, 'changed'),
    );

  const remove = (what: string[] | 'all') => {
    setConfirming(undefined);
    return action.run(
      async () => {
        const answer = await call('deleteSubmissions', {
          params: { id: formId },
          body: { target: what === 'all' ? { filter: folder, asOf: list!.asOf } : { ids: what } },
        });
        await load();
        return answer;
      },
      (answer) => counted(answer.count, 'deleted'),
    );
  };

  const focused = useInboxKeys({
    rows,
    count: items.length,
    onOpen: (i) => navigate(paths.submission(formId, items[i]!.id, { folder, page, pageSize })),
    onRead: (i) => void change({ read: !items[i]!.read }, [items[i]!.id]),
    onStar: (i) => void change({ starred: !items[i]!.starred }, [items[i]!.id]),
    onDelete: (i) => setConfirming([items[i]!.id]),
    onSelect: (i) => toggle(i, false),
    onHelp: () => setHelp(true),
    enabled: !confirming && !help,
  });

  if (error || !form || !list)
    return <ScreenPending error={error} retry={load} label="Loading submissions…" />;

  const counts = list.folderCounts;
  const nothingYet = counts.all + counts.spam === 0;
  const selectedCount = allMatching ? list.total : selected.size;

  return (
    <main id="main" class="inbox">
      <div class="tools">
        <p>{submissionsAndTests(list.submissionCount, list.testCount)}</p>
        <button type="button" class="quiet" onClick={() => setHelp(true)}>
          Keyboard shortcuts
        </button>
      </div>

      <nav aria-label="Folders" class="folders">
        {FOLDERS.map((each) => (
          <Link
            key={each}
            to={paths.inbox(formId, { folder: each, page: 1, pageSize })}
            aria-current={each === folder ? 'page' : undefined}
          >
            {FOLDER_NAMES[each]} <span class="count">{counts[each]}</span>
          </Link>
        ))}
      </nav>

      <SearchBox formId={formId} folder={folder} q={q} />

      <Outcome action={action} />

      {q ? (
        <SearchResults formId={formId} folder={folder} q={q} pageSize={pageSize} />
      ) : nothingYet ? (
        <section>
          <h2>No submissions yet</h2>
          <p>Post to this form from a website, the hosted page or the embed:</p>
          <SharePanel form={form} />
        </section>
      ) : (
        <>
          {fresh > 0 && (
            <button
              type="button"
              class="fresh"
              onClick={() => {
                navigate(paths.inbox(formId, { folder, page: 1, pageSize }));
                void load();
              }}
            >
              {fresh} new {fresh === 1 ? 'submission' : 'submissions'}: show
            </button>
          )}
          {selectedCount > 0 && (
            <fieldset class="bulk">
              <legend>{selectedCount} selected</legend>
              {!allMatching && selected.size === items.length && list.total > items.length && (
                <button type="button" class="quiet" onClick={() => setAllMatching(true)}>
                  Select all {list.total} in {FOLDER_NAMES[folder]}
                </button>
              )}
              <button type="button" disabled={busy} onClick={() => change({ read: true })}>
                Mark read
              </button>
              <button type="button" disabled={busy} onClick={() => change({ read: false })}>
                Mark unread
              </button>
              <button type="button" disabled={busy} onClick={() => change({ starred: true })}>
                Star
              </button>
              <button type="button" disabled={busy} onClick={() => change({ starred: false })}>
                Unstar
              </button>
              {folder === 'spam' ? (
                <button type="button" disabled={busy} onClick={() => change({ isSpam: false })}>
                  Not spam
                </button>
              ) : (
                <button type="button" disabled={busy} onClick={() => change({ isSpam: true })}>
                  Spam
                </button>
              )}
              <button
                type="button"
                class="danger"
                disabled={busy}
                onClick={() => setConfirming(allMatching ? 'all' : [...selected])}
              >
                Delete
              </button>
            </fieldset>
          )}
          {items.length === 0 ? (
            <p>No submissions in {FOLDER_NAMES[folder]}.</p>
          ) : (
            <table class="submissions">
              <caption class="visually-hidden">
                {FOLDER_NAMES[folder]}: page {list.page} of {list.pageCount}
              </caption>
              <thead>
                <tr>
                  <th scope="col">
                    <input
                      type="checkbox"
                      aria-label="Select all on this page"
                      checked={items.length > 0 && selected.size === items.length}
                      onChange={(event) => {
                        setSelected(
                          event.currentTarget.checked ? new Set(items.map((s) => s.id)) : new Set(),
                        );
                        setAllMatching(false);
                      }}
                    />
                  </th>
                  <th scope="col">
                    <span class="visually-hidden">Starred</span>
                  </th>
                  <th scope="col">Submission</th>
                  <th scope="col">Received</th>
                </tr>
              </thead>
              <tbody ref={rows}>
                {items.map((submission, index) => (
                  <Row
                    key={submission.id}
                    submission={submission}
                    href={paths.submission(formId, submission.id, { folder, page, pageSize })}
                    selected={allMatching || selected.has(submission.id)}
                    focused={focused === index}
                    onToggle={(range) => toggle(index, range)}
                    onStar={() => change({ starred: !submission.starred }, [submission.id])}
                  />
                ))}
              </tbody>
            </table>
          )}
          <Pager formId={formId} folder={folder} list={list} />
        </>
      )}

      {confirming && (
        <Confirm
          title={`Delete ${confirming === 'all' ? list.total : confirming.length} ${
            (confirming === 'all' ? list.total : confirming.length) === 1
              ? 'submission'
              : 'submissions'
          }?`}
          confirm="Delete"
          onConfirm={() => remove(confirming)}
          onCancel={() => setConfirming(undefined)}
        >
          <p>They and their files are deleted for good. They still count in this month’s usage.</p>
        </Confirm>
      )}
      {help && <KeyHelp onClose={() => setHelp(false)} />}
    </main>
  );
}

function Row(props: {
  submission: Submission;
  href: string;
  selected: boolean;
  focused: boolean;
  onToggle: (range: boolean) => void;
  onStar: () => void;
}) {
  const { submission } = props;
  const preview = submission.preview || '(no answers)';
  const from = senderOf(submission);
  return (
    <tr
      class={`${submission.read ? 'read' : 'unread'}${props.focused ? ' focused' : ''}`}
      aria-selected={props.selected}
    >
      <td>
        <input
          type="checkbox"
          checked={props.selected}
          aria-label={`Select: ${preview}`}
          onClick={(event) => {
            event.preventDefault();
            props.onToggle(event.shiftKey);
          }}
        />
      </td>
      <td>
        <button type="button" class="star" aria-pressed={submission.starred} onClick={props.onStar}>
          <span aria-hidden="true">{submission.starred ? '★' : '☆'}</span>
          <span class="visually-hidden">Star</span>
        </button>
      </td>
      <td>
        {from && from !== preview && <span class="from">{from}</span>}
        <Link to={props.href} class="preview">
          {!submission.read && <span class="visually-hidden">Unread: </span>}
          {preview}
        </Link>
        {submission.isTest && <span class="badge test">test</span>}
        {submission.data._invalid && <span class="badge invalid">invalid answers</span>}
      </td>
      <td>
        <When at={submission.createdAt} />
      </td>
    </tr>
  );
}

function Pager(props: { formId: string; folder: Folder; list: Page }) {
  const { list } = props;
  return (
    <nav aria-label="Pages" class="pager">
      {list.page > 1 ? (
        <Link
          to={paths.inbox(props.formId, {
            folder: props.folder,
            page: list.page - 1,
            pageSize: list.pageSize,
          })}
        >
          Previous page
        </Link>
      ) : (
        <span />
      )}
      <span>
        {/* A folder's size, tests included: named by the folder, not as submissions. */}
        Page {list.page} of {list.pageCount} · {list.total.toLocaleString()} in{' '}
        {FOLDER_NAMES[props.folder]}
      </span>
      <label>
        Per page{' '}
        <select
          value={list.pageSize}
          onChange={(event) =>
            navigate(
              paths.inbox(props.formId, {
                folder: props.folder,
                page: 1,
                pageSize: Number(event.currentTarget.value),
              }),
            )
          }
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
      {list.page < list.pageCount ? (
        <Link
          to={paths.inbox(props.formId, {
            folder: props.folder,
            page: list.page + 1,
            pageSize: list.pageSize,
          })}
        >
          Next page
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

function SearchBox(props: { formId: string; folder: Folder; q: string }) {
  const [text, setText] = useState(props.q);
  useEffect(() => setText(props.q), [props.q]);
  const submit = (event: Event) => {
    event.preventDefault();
    navigate(paths.inbox(props.formId, { folder: props.folder, q: text.trim() }));
  };
  return (
    <search>
      <form class="search" onSubmit={submit}>
        <label for="search-answers">Search answers</label>
        <input
          id="search-answers"
          type="search"
          value={text}
          maxLength={200}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <button type="submit">Search</button>
      </form>
    </search>
  );
}

/** Who sent it, when the answers say: an email answer, else a name. */
function senderOf(submission: Submission): string | undefined {
  const answers = Object.entries(submission.data).filter(([name]) => name !== '_invalid');
  const email = answers.find(([, value]) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value));
  const name = answers.find(([field]) => /name/i.test(field));
  return email?.[1] ?? name?.[1];
}
