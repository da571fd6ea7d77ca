import { useRef, useState } from 'preact/hooks';
import { ApiError, call } from '../api.ts';
import { type Action, useAction } from '../data.ts';
import type { Submission } from '../model.ts';
import { navigate } from '../router.ts';
import type { useSubmissionReads } from './submission-data.tsx';

type Flags = Partial<Pick<Submission, 'read' | 'starred' | 'isSpam'>>;

/** What a flag change says: [set, cleared]. */
const FLAG_WORDS = {
  starred: ['Starred', 'Unstarred'],
  read: ['Marked read', 'Marked unread'],
} as const;

/**
 * What the submission page does: star, mark read or unread, spam, delete,
 * download; star, read and spam offer their undo.
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
  const idle: Pick<Action, 'notice' | 'error' | 'undo'> = {
    notice: '',
    error: '',
    undo: undefined,
  };
  // The submission on screen now: an answer coming after the person moved on (j, k, u) acts on
  // nothing, neither opening "the next" of the one left nor writing its flags over this one.
  const showing = useRef(submissionId);
  showing.current = submissionId;
  const stillOn = (id: string) => showing.current === id;

  const change = async (flags: Flags, id = submissionId) => {
    try {
      await call('updateSubmissions', {
        params: { id: formId },
        body: { target: { ids: [id] }, ...flags },
      });
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404) setGone({ id, error: failure });
      throw failure;
    }
    return true;
  };
  const moveOn = (notice: string) => {
    const next = reads.around?.next;
    if (!next) {
      navigate(inbox);
      return false;
    }
    setOutcomeFor(next);
    action.setNotice(notice);
    options.open(next);
    return true;
  };
  const run = <T,>(work: () => Promise<T>, done?: string, on = submissionId) => {
    setOutcomeFor(on);
    return action.run(work, done);
  };
  /** Sets `flags` on the submission shown, if it is still the one shown when the answer comes. */
  const setFlags = async (flags: Omit<Flags, 'isSpam'>) => {
    await change(flags);
    if (current && stillOn(current.submission.id))
      reads.setSubmission({ ...current.submission, ...flags });
    return true;
  };

  return {
    busy: action.busy,
    outcome: outcomeFor === submissionId ? action : idle,
    /**
     * Stars, unstars, marks read or unread, said in words; a change that
     * moved something offers its undo (docs/dashboard.md#undo).
     */
    flag: async (flags: Omit<Flags, 'isSpam'>) => {
      if (!current) return;
      const before = current.submission;
      const [flag, value] = Object.entries(flags)[0] as ['read' | 'starred', boolean];
      const done = await run(() => setFlags(flags), FLAG_WORDS[flag][value ? 0 : 1]);
      if (!done || before[flag] === value) return;
      action.offerUndo(
        () =>
          void run(
            () => setFlags({ [flag]: !value }),
            `Undone: ${FLAG_WORDS[flag][value ? 1 : 0].toLowerCase()}`,
          ),
      );
    },
    spam: async () => {
      if (!current || action.busy) return;
      const left = current.submission.id;
      const isSpam = !current.submission.isSpam;
      if (!(await run(() => change({ isSpam }))) || !stillOn(left)) return;
      const movedOn = moveOn(
        isSpam
          ? 'Moved to spam. This is the next submission.'
          : 'Moved out of spam. This is the next submission.',
      );
      // Undo puts it back where it was and opens it again.
      if (movedOn)
        action.offerUndo(
          () =>
            void run(
              async () => {
                await change({ isSpam: !isSpam }, left);
                options.open(left);
              },
              isSpam ? 'Undone: moved back out of spam.' : 'Undone: moved back to spam.',
              left,
            ),
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
