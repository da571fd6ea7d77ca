import type { Submission } from './submission-model.ts';

/**
 * The inbox folders of SPEC.md's list filters. A submission's flags decide
 * which folders hold it; the store keeps one sparse index and one counter per
 * folder, so a flag change moves exactly the counters of the folders it
 * enters or leaves.
 */
export const FOLDERS = ['all', 'unread', 'starred', 'spam'] as const;
export type Folder = (typeof FOLDERS)[number];

type Flags = Pick<Submission, 'read' | 'starred' | 'isSpam'>;

/** `all` is everything but spam; `unread` and `starred` are never spam either. */
export function foldersOf(flags: Flags): Folder[] {
  if (flags.isSpam) return ['spam'];
  const folders: Folder[] = ['all'];
  if (!flags.read) folders.push('unread');
  if (flags.starred) folders.push('starred');
  return folders;
}

/** Whether the submission counts in the form's `submissionCount`. */
export function countsAsSubmission(submission: Pick<Submission, 'isSpam' | 'isTest'>): boolean {
  return !submission.isSpam && !submission.isTest;
}
