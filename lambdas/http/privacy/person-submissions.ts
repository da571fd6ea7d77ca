import { config } from '#config';
import { emailHash } from '#domain/email-index.ts';
import { ServiceError } from '#domain/errors.ts';
import type { FormRecord } from '#domain/form-model.ts';
import { type IndexedSubmission, indexedSubmissions } from '#store/email-index.ts';
import { getTeamForm } from '#store/forms.ts';

/** A person's submissions in one form, as the email index names them. */
export interface PersonInForm {
  form: FormRecord;
  submissionIds: string[];
}

/** What the email index holds for one address of the team. */
export interface PersonLookup {
  /** The address's keyed hash: what the audit trail records in its place. */
  hash: string;
  /** Forms of the team that still exist, oldest first by id, with the ids named in each. */
  forms: PersonInForm[];
  /** Every entry found, forms since deleted included: what an erase removes from the index. */
  entries: IndexedSubmission[];
}

/**
 * Finds a person's submissions through the email index
 * (docs/privacy.md#how-a-person-is-found): one Query of the address hash's
 * partition, never a read of the team's submissions. Entries may name
 * submissions deleted since (a bulk delete, retention): the callers read the
 * submissions and leave those out.
 */
export async function lookUpPerson(teamId: string, email: string): Promise<PersonLookup> {
  const hash = emailHash(config.keyedHashSecret, teamId, email);
  const entries = await indexedSubmissions(teamId, hash);
  const byForm = new Map<string, string[]>();
  for (const entry of entries) {
    const ids = byForm.get(entry.formId) ?? [];
    ids.push(entry.submissionId);
    byForm.set(entry.formId, ids);
  }
  const forms: PersonInForm[] = [];
  for (const [formId, submissionIds] of [...byForm].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const form = await getTeamForm(teamId, formId).catch((error: unknown) => {
      // A form deleted since took its submissions with it.
      if (error instanceof ServiceError && error.status === 404) return undefined;
      throw error;
    });
    if (form) forms.push({ form, submissionIds });
  }
  return { hash, forms, entries };
}

/** Ids in slices of at most `size` (a BatchGet, a transaction). */
export function* slices<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
