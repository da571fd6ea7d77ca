import { useState } from 'preact/hooks';
import { answerRows, browserOf, countryName, size } from '../answers.ts';
import { ApiError, call } from '../api.ts';
import { useAction, useQuery } from '../data.ts';
import type { Folder, Form, Submission } from '../model.ts';
import { FOLDERS } from '../model.ts';
import { Confirm } from '../parts/confirm.tsx';
import { Loading, Outcome, Problem } from '../parts/feedback.tsx';
import { BackLink, Link } from '../parts/link.tsx';
import { paths } from '../paths.ts';
import { navigate } from '../router.ts';
import { When } from '../time.tsx';

interface Neighbours {
  previous?: string;
  next?: string;
  page: number;
}

/**
 * One submission: answers by the form's fields, problems where the checks
 * found them, where it came from, its files, and the one before and after
 * it in the folder. Opening it marks it read (the API's GET does not).
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
  const pageSize = Number(query.get('pageSize')) || 15;
  const [gone, setGone] = useState<{ id: string; error: ApiError }>();
  const [confirming, setConfirming] = useState(false);
  const action = useAction();

  // Newer and older in quick succession: each read replaces the one under way, so a slow
  // answer for a submission left never shows on the one opened since.
  const key = `${formId}/${submissionId}`;
  const shown = useQuery(key, async (signal): Promise<{ form: Form; submission: Submission }> => {
    const [form, found] = await Promise.all([
      call('getForm', { params: { id: formId }, signal }),
      call('getSubmission', { params: { id: formId, submissionId }, signal }),
    ]);
    if (found.read) return { form, submission: found };
    await call('updateSubmissions', {
      params: { id: formId },
      body: { target: { ids: [found.id] }, read: true },
      signal,
    });
    return { form, submission: { ...found, read: true } };
  });
  // The neighbours come from the folder's list, which the answers need not wait for.
  const near = useQuery(key, (signal) =>
    neighbours(formId, submissionId, folder, pageSize, signal).catch(() => undefined),
  );
  // Another submission: nothing of the last one stays on screen, its neighbours least of all.
  const current = shown.data?.submission.id === submissionId ? shown.data : undefined;
  const form = current?.form;
  const submission = current?.submission;
  const around = near.loading ? undefined : near.data;
  const error = (gone?.id === submissionId ? gone.error : undefined) ?? shown.error;
  const load = () => {
    setGone(undefined);
    void near.reload();
    return shown.reload();
  };

  const flag = (flags: Partial<Pick<Submission, 'read' | 'starred' | 'isSpam'>>) =>
    action.run(async () => {
      try {
        await call('updateSubmissions', {
          params: { id: formId },
          body: { target: { ids: [submissionId] }, ...flags },
        });
      } catch (failure) {
        if (failure instanceof ApiError && failure.status === 404)
          setGone({ id: submissionId, error: failure });
        throw failure;
      }
      if (current) shown.setData({ ...current, submission: { ...current.submission, ...flags } });
    }, 'Saved');

  const remove = () => {
    setConfirming(false);
    return action.run(async () => {
      const answer = await call('deleteSubmissions', {
        params: { id: formId },
        body: { target: { ids: [submissionId] } },
      });
      if (answer.count === 0) {
        setGone({
          id: submissionId,
          error: new ApiError(404, 'not_found', 'This submission was deleted already.'),
        });
        return;
      }
      navigate(paths.inbox(formId, { folder, page: around?.page ?? 1, pageSize }));
    });
  };

  const download = (index: number) =>
    action.run(async () => {
      const link = await call('getSubmissionFile', {
        params: { id: formId, submissionId, index: String(index) },
      });
      window.location.assign(link.url);
    });

  const back = paths.inbox(formId, { folder, page: around?.page ?? 1, pageSize });
  if (error) {
    const gone = error instanceof ApiError && error.status === 404;
    return (
      <main id="main">
        {gone ? (
          <div role="alert">
            <h2>Not found</h2>
            <p>This submission (or its form) has been deleted.</p>
          </div>
        ) : (
          <Problem error={error} retry={load} />
        )}
        <BackLink to={paths.inbox(formId, { folder, pageSize })}>Back to the inbox</BackLink>
      </main>
    );
  }
  if (!form || !submission)
    return (
      <main id="main">
        <Loading label="Loading the submission…" />
      </main>
    );

  const rows = answerRows(submission.data, form.fields);
  const files = submission.meta.files ?? [];
  return (
    <main id="main" class="submission">
      <nav aria-label="Submission" class="around">
        <BackLink to={back} inline>
          Back to the inbox
        </BackLink>
        {around?.previous ? (
          <Link to={paths.submission(formId, around.previous, { folder, pageSize })}>Newer</Link>
        ) : (
          <span />
        )}
        {around?.next ? (
          <Link to={paths.submission(formId, around.next, { folder, pageSize })}>Older</Link>
        ) : (
          <span />
        )}
      </nav>
      <h2>
        Submission <When at={submission.createdAt} />
        {submission.isTest && <span class="badge test">test</span>}
        {submission.isSpam && <span class="badge spam">spam</span>}
      </h2>
      <div class="tools">
        <button
          type="button"
          aria-pressed={submission.starred}
          onClick={() => flag({ starred: !submission.starred })}
        >
          {submission.starred ? 'Unstar' : 'Star'}
        </button>
        <button type="button" onClick={() => flag({ read: false })}>
          Mark unread
        </button>
        <button type="button" onClick={() => flag({ isSpam: !submission.isSpam })}>
          {submission.isSpam ? 'Not spam' : 'Spam'}
        </button>
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Delete
        </button>
      </div>
      <Outcome action={action} />
      <dl class="answers">
        {rows.map((row) => (
          <div key={row.id} class={row.problem ? 'answer problem' : 'answer'}>
            <dt>{row.label}</dt>
            <dd>
              {row.value === undefined || row.value === '' ? (
                <span class="empty">(no answer)</span>
              ) : (
                row.value
              )}
              {row.problem && <p class="reason">{row.problem}</p>}
            </dd>
          </div>
        ))}
      </dl>
      {files.length > 0 && (
        <section aria-labelledby="files-title">
          <h2 id="files-title">Files</h2>
          <ul class="files">
            {files.map((file, index) => (
              <li key={`${file.name}-${index}`}>
                {file.name}{' '}
                <span class="meta">
                  ({file.mime}, {size(file.size)})
                </span>{' '}
                <button
                  type="button"
                  onClick={() => download(index)}
                  aria-label={`Download ${file.name}`}
                >
                  Download
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="meta-title">
        <h2 id="meta-title">Where it came from</h2>
        <dl class="meta">
          <dt>Received</dt>
          <dd>{new Date(submission.createdAt).toLocaleString()}</dd>
          {submission.meta.country && (
            <>
              <dt>Country</dt>
              <dd>{countryName(submission.meta.country)}</dd>
            </>
          )}
          {submission.meta.deviceClass && (
            <>
              <dt>Device</dt>
              <dd>{submission.meta.deviceClass}</dd>
            </>
          )}
          {submission.meta.userAgent && (
            <>
              <dt>Browser</dt>
              <dd title={submission.meta.userAgent}>{browserOf(submission.meta.userAgent)}</dd>
            </>
          )}
          <dt>Page</dt>
          <dd>{submission.meta.referrer || '(not sent)'}</dd>
          <dt>IP address</dt>
          <dd>
            {submission.meta.ip ?? (form.dontStoreIp ? '(not kept for this form)' : '(unknown)')}
          </dd>
        </dl>
      </section>
      {confirming && (
        <Confirm
          title="Delete this submission?"
          confirm="Delete"
          onConfirm={remove}
          onCancel={() => setConfirming(false)}
        >
          <p>It and its files are deleted for good.</p>
        </Confirm>
      )}
    </main>
  );
}

/** The submissions before and after this one in the folder, and the page that holds it. */
async function neighbours(
  formId: string,
  id: string,
  folder: Folder,
  pageSize: number,
  signal: AbortSignal,
): Promise<Neighbours> {
  const list = (query: { around?: string; page?: number }) =>
    call('listSubmissions', {
      params: { id: formId },
      query: { filter: folder, pageSize, ...query },
      signal,
    });
  const page = await list({ around: id });
  const at = page.items.findIndex((item) => item.id === id);
  if (at < 0) return { page: page.page };
  let previous = page.items[at - 1]?.id;
  let next = page.items[at + 1]?.id;
  if (!previous && page.page > 1) previous = (await list({ page: page.page - 1 })).items.at(-1)?.id;
  if (!next && page.page < page.pageCount)
    next = (await list({ page: page.page + 1 })).items[0]?.id;
  return { previous, next, page: page.page };
}
