import type { Submission } from '../model.ts';

/** Whether a file of the submission was found infected (and deleted). */
export const hasInfectedFile = (submission: Pick<Submission, 'meta'>): boolean =>
  (submission.meta.files ?? []).some((file) => file.scan === 'infected');

/**
 * The inbox's mark of a submission with a file found infected
 * (docs/uploads-and-pages.md#malware-scanning), among its row's chips.
 */
export function InfectedMark() {
  return <span class="badge infected">malware found</span>;
}
