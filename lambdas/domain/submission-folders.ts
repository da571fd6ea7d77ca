import { isPending } from './confirmation-state.ts';
import type { Submission } from './submission-model.ts';

/**
 * The inbox folders of the list filters (docs/submissions.md#folders-and-paging).
 * A submission's flags decide which folders hold it; the store keeps one
 * sparse index and one counter per folder, so a flag change moves exactly the
 * counters of the folders it enters or leaves.
 */
export const FOLDERS = ['all', 'unread', 'starred', 'spam', 'pending'] as const;
export type Folder = (typeof FOLDERS)[number];

/** How many submissions each folder holds. */
export type FolderSizes = Record<Folder, number>;

/**
 * `all` is everything but spam and pending; `unread` and `starred` are
 * never spam either. A submission waiting for its visitor's confirmation
 * is only in `pending` (docs/submissions.md#folders-and-paging).
 */
export function foldersOf(flags: Flags): Folder[] {
  if (flags.isSpam) return ['spam'];
  if (isPending(flags)) return ['pending'];
  const folders: Folder[] = ['all'];
  if (!flags.read) folders.push('unread');
  if (flags.starred) folders.push('starred');
  return folders;
}

/** Whether the submission counts in the form's `submissionCount`: not while pending. */
export function countsAsSubmission(
  submission: Pick<Submission, 'isSpam' | 'isTest' | 'confirmation'>,
): boolean {
  return !submission.isSpam && !submission.isTest && !isPending(submission);
}

/**
 * The test submissions outside spam: `all` holds every submission but spam,
 * `submissionCount` those that are neither spam nor test, so the rest of
 * `all` is tests (docs/api-basics.md#counting).
 */
export function testCountOf(folders: Pick<FolderSizes, 'all'>, submissionCount: number): number {
  return Math.max(0, folders.all - submissionCount);
}

export type Flags = Pick<Submission, 'read' | 'starred' | 'isSpam'> &
  Partial<Pick<Submission, 'confirmation'>>;
export type FlagChange = Partial<Flags>;

/** The flags after the change, or undefined when the submission already holds them. */
export function changedFlags(current: Flags, change: FlagChange): Flags | undefined {
  const next: Flags = {
    read: change.read ?? current.read,
    starred: change.starred ?? current.starred,
    isSpam: change.isSpam ?? current.isSpam,
  };
  const same =
    next.read === current.read &&
    next.starred === current.starred &&
    next.isSpam === current.isSpam;
  return same ? undefined : next;
}

/** How the form's counters move: one number per folder and `submissionCount`. */
export interface CounterDeltas {
  folders: FolderSizes;
  submissionCount: number;
}

export function noDeltas(): CounterDeltas {
  return { folders: { all: 0, unread: 0, starred: 0, spam: 0, pending: 0 }, submissionCount: 0 };
}

/**
 * Adds to `total` what a submission going from `before` to `after` moves;
 * `after` undefined is a deletion. Test submissions never count in
 * `submissionCount`, whatever folder they are in.
 */
export function addCounterDeltas(
  total: CounterDeltas,
  before: Flags & Pick<Submission, 'isTest'>,
  after: Flags | undefined,
): CounterDeltas {
  for (const folder of foldersOf(before)) total.folders[folder] -= 1;
  if (countsAsSubmission(before)) total.submissionCount -= 1;
  if (after) {
    for (const folder of foldersOf(after)) total.folders[folder] += 1;
    if (countsAsSubmission({ ...after, isTest: before.isTest })) total.submissionCount += 1;
  }
  return total;
}
