import { useState } from 'preact/hooks';
import { type ApiError, call } from '../api.ts';
import { isPending } from '../confirmation-model.ts';
import { useQuery } from '../data.ts';
import { readForm } from '../form-read.ts';
import type { Folder, Form, SpamReason, Submission } from '../model.ts';
import { neighbours } from '../submission-model.ts';

/**
 * What the submission page reads: the form and the submission (marked read
 * on opening, unless it waits for confirmation), and its neighbours in the folder, which the answers need not
 * wait for. Newer and older in quick succession: each read replaces the one
 * under way, so a slow answer for a submission left never shows on the one
 * opened since.
 */
export function useSubmissionReads(
  formId: string,
  submissionId: string,
  place: { folder: Folder; reason?: SpamReason; pageSize: number },
) {
  const [gone, setGone] = useState<{ id: string; error: ApiError }>();
  const key = `${formId}/${submissionId}`;
  const shown = useQuery(key, async (signal): Promise<{ form: Form; submission: Submission }> => {
    const [form, found] = await Promise.all([
      readForm(formId, signal),
      call('getSubmission', { params: { id: formId, submissionId }, signal }),
    ]);
    // One waiting for confirmation takes no change but Delete (docs/dashboard.md#confirm-by-email).
    if (found.read || isPending(found)) return { form, submission: found };
    await call('updateSubmissions', {
      params: { id: formId },
      body: { target: { ids: [found.id] }, read: true },
      signal,
    });
    return { form, submission: { ...found, read: true } };
  });
  const near = useQuery(key, (signal) =>
    neighbours(submissionId, (query) =>
      call('listSubmissions', {
        params: { id: formId },
        query: { filter: place.folder, reason: place.reason, pageSize: place.pageSize, ...query },
        signal,
      }),
    ).catch(() => undefined),
  );
  // Another submission: nothing of the last one stays on screen, its neighbours least of all.
  const current = shown.data?.submission.id === submissionId ? shown.data : undefined;
  return {
    current,
    around: near.loading ? undefined : near.data,
    error: (gone?.id === submissionId ? gone.error : undefined) ?? shown.error,
    setGone,
    setSubmission: (submission: Submission) => {
      if (current) shown.setData({ ...current, submission });
    },
    reload: () => {
      setGone(undefined);
      void near.reload();
      return shown.reload();
    },
  };
}
