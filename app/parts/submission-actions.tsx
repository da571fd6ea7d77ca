import { useRef, useState } from 'preact/hooks';
import { ApiError, call } from '../api.ts';
import { type Action, useAction } from '../data.ts';
import type { Submission } from '../model.ts';
import { navigate } from '../router.ts';
import type { useSubmissionReads } from './submission-data.tsx';

type Flags = Partial<Pick<Submission, 'read' | 'starred' | 'isSpam'>>;

/**
 * What the submission page does: star, mark unread, spam, delete, download.
 * Spam and delete take it out of its folder, so the next submission opens
 * after them (the inbox when there is none): docs/dashboard.md#keys-on-a-submission.
 * An action's words show on the submission it was about, or on the one it opened.
 */
export function useSubmissionActions(options: {
  formId: string;
  submissionId: string;
  reads: ReturnType<typeof useSubmissionReads>;
  inbox: string;
  open: (id: string) => void;
}) {
  const { formId, submissionId, reads, inbox } = options;
  const { current, setGone } = reads;
  const action = useAction();
  const [outcomeFor, setOutcomeFor] = useState<string>();
  const idle: Pick<Action, 'notice' | 'error'> = { notice: '', error: '' };
  // The submission on screen now: an answer coming after the person moved on (j, k, u) acts on
  // nothing, neither opening "the next" of the one left nor writing its flags over this one.
  const showing = useRef(submissionId);
  showing.current = submissionId;
  const stillOn = (id: string) => showing.current === id;

  const change = async (flags: Flags) => {
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
    return true;
  };
  const moveOn = (notice: string) => {
    const next = reads.around?.next;
    if (!next) return navigate(inbox);
    setOutcomeFor(next);
    action.setNotice(notice);
    options.open(next);
  };
  const run = <T,>(work: () => Promise<T>, done?: string) => {
    setOutcomeFor(submissionId);
    return action.run(work, done);
  };

  return {
    busy: action.busy,
    outcome: outcomeFor === submissionId ? action : idle,
    flag: (flags: Omit<Flags, 'isSpam'>) =>
      run(async () => {
        await change(flags);
        if (current && stillOn(current.submission.id))
          reads.setSubmission({ ...current.submission, ...flags });
      }, 'Saved'),
    spam: async () => {
      if (!current || action.busy) return;
      const isSpam = !current.submission.isSpam;
      if ((await run(() => change({ isSpam }))) && stillOn(submissionId))
        moveOn(
          isSpam
            ? 'Moved to spam. This is the next submission.'
            : 'Moved out of spam. This is the next submission.',
        );
    },
    remove: async () => {
      const answer = await run(() =>
        call('deleteSubmissions', {
          params: { id: formId },
          body: { target: { ids: [submissionId] } },
        }),
      );
      if (answer?.count === 0) {
        const error = new ApiError(404, 'not_found', 'This submission was deleted already.');
        setGone({ id: submissionId, error });
      } else if (answer && stillOn(submissionId)) moveOn('Deleted. This is the next submission.');
    },
    download: (index: number) =>
      run(async () => {
        const link = await call('getSubmissionFile', {
          params: { id: formId, submissionId, index: String(index) },
        });
        window.location.assign(link.url);
      }),
  };
}
