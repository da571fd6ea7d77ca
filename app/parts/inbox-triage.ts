import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import type { Action } from '../data.ts';
import { type Change, changedWords, submissions, undoOf } from '../inbox-model.ts';
import type { Folder, SpamReason, Submission } from '../model.ts';
import { type Selection, useSelection } from './inbox-selection.ts';

/** What a change or a delete acts on: ids, or a whole folder as of a moment (docs/submissions.md#bulk-targets). */
export type Target = { ids: string[] } | { filter: Folder; reason?: SpamReason; asOf: string };

export interface Triage {
  selection: Selection;
  /**
   * Changes the selection's flags (or those of `ids`, or of the whole list as of
   * its reading: 'all'), says how many changed, reads again.
   */
  change: (change: Change, ids?: string[] | 'all') => Promise<unknown>;
  /** The delete waiting for its question's answer. */
  deleting: Target | undefined;
  /** Asks before deleting `ids`, the whole folder as of the list ('folder'), else the selection. */
  askDelete: (ids: string[] | 'folder' | undefined) => void;
  cancelDelete: () => void;
  confirmDelete: () => Promise<unknown>;
  /** How many a target holds, for the question. */
  sizeOf: (target: Target) => number;
}

/**
 * Triage of a list of submissions: the selection, changes and deletes
 * through the bulk routes, each said in words by `action` and followed by
 * `reload` (the list read again). A change of rows of the list offers its
 * undo (docs/dashboard.md#undo); a change of a whole folder as of a moment
 * (its rows unknown here) and a delete do not.
 */
export function useTriage(options: {
  formId: string;
  folder: Folder;
  items: Submission[];
  action: Action;
  reload: () => Promise<unknown>;
  /** The folder as of the list, when all of it may be selected; its size. */
  matching?: { asOf: string; total: number };
  /** The spam folder narrowed to one reason: a whole-list target names it too. */
  reason?: SpamReason;
}): Triage {
  const { formId, folder, action, reload, matching, reason } = options;
  const whole = (asOf: string): Target =>
    reason ? { filter: folder, reason, asOf } : { filter: folder, asOf };
  const selection = useSelection(options.items);
  const [deleting, setDeleting] = useState<Target>();

  const selected = (): Target =>
    selection.allMatching && matching ? whole(matching.asOf) : { ids: [...selection.ids] };

  const update = (target: Target, flags: Change) =>
    call('updateSubmissions', { params: { id: formId }, body: { target, ...flags } });

  const change = async (flags: Change, ids?: string[] | 'all') => {
    const target =
      ids === 'all' && matching ? whole(matching.asOf) : Array.isArray(ids) ? { ids } : selected();
    // What an undo puts back: the rows of this list the change moved, each to what it was.
    const back = 'ids' in target ? undoOf(options.items, target.ids, flags) : undefined;
    const answer = await action.run(
      async () => {
        const answer = await update(target, flags);
        if (!Array.isArray(ids)) selection.clear();
        await reload();
        return answer;
      },
      (answer) => changedWords(answer.count, flags),
    );
    if (answer && answer.count > 0 && back) {
      action.offerUndo(() =>
        action.run(
          async () => {
            const undone = await update({ ids: back.ids }, back.flags);
            await reload();
            return undone;
          },
          (undone) => `Undone: ${changedWords(undone.count, back.flags)}`,
        ),
      );
    }
    return answer;
  };

  const confirmDelete = () => {
    const target = deleting;
    setDeleting(undefined);
    if (!target) return Promise.resolve();
    return action.run(
      async () => {
        const answer = await call('deleteSubmissions', {
          params: { id: formId },
          body: { target },
        });
        selection.clear();
        await reload();
        return answer;
      },
      (answer) => `${submissions(answer.count)} deleted`,
    );
  };

  return {
    selection,
    change,
    deleting,
    askDelete: (ids) =>
      setDeleting(
        ids === 'folder' && matching
          ? whole(matching.asOf)
          : Array.isArray(ids)
            ? { ids }
            : selected(),
      ),
    cancelDelete: () => setDeleting(undefined),
    confirmDelete,
    sizeOf: (target) => ('ids' in target ? target.ids.length : (matching?.total ?? 0)),
  };
}
