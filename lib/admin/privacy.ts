import {
  ADDRESS_PATTERN,
  addressesOf,
  emailHash,
  foldedAddress,
  keyedHashOf,
  MAX_ADDRESS_LENGTH,
} from '#domain/email-index.ts';
import { submitterAddress } from '#domain/email-messages.ts';
import type { FormRecord } from '#domain/form-model.ts';
import {
  deleteEmailIndexEntries,
  type IndexedSubmission,
  putEmailIndexEntries,
} from '#store/email-index.ts';
import { getStoredSubmissionsById } from '#store/folder-reads.ts';
import { getForm, listTeamForms } from '#store/forms.ts';
import { keepSignupHash } from '#store/submissions.ts';
import {
  legacySignupMarks,
  rekeySignupMark,
  submissionsOldestFirst,
} from '#store/summary-buckets.ts';
import { getTeam } from '#store/teams.ts';

/** Entries written a BatchWrite round at a time. */
const BATCH = 100;

type Entry = IndexedSubmission & { hash: string };

/**
 * The hashes an older rule indexed a text under and the current one does
 * not: before invisible characters were folded (docs/privacy.md#invisible-characters),
 * an address was only trimmed and lower cased, so `ada@example.com` with a
 * zero-width space was indexed as another address.
 */
function staleHashes(secret: string, teamId: string, texts: readonly string[]): string[] {
  const stale = new Set<string>();
  for (const text of texts) {
    if (typeof text !== 'string') continue;
    const before = text.trim().toLowerCase();
    if (before.length > MAX_ADDRESS_LENGTH || !ADDRESS_PATTERN.test(before)) continue;
    if (before !== foldedAddress(text)) stale.add(keyedHashOf(secret, teamId, before));
  }
  return [...stale];
}

/**
 * `privacy reindex`: writes the email index entries of a team's submissions
 * (docs/privacy.md#how-a-person-is-found), for those stored before the index
 * existed, and removes the entries an older rule wrote under another hash
 * (an address with an invisible character), and moves a waitlist's signup
 * marks an older version keyed without the secret. Reads each form's submissions
 * once; the entries are the ones the submit path writes (test submissions
 * have none), so a second run writes the same items and changes nothing.
 * The table must be configured before this module is imported. Undefined
 * when there is no such team.
 */
export async function reindexTeam(teamId: string, secret: string) {
  if (!(await getTeam(teamId))) return undefined;
  const forms = await listTeamForms(teamId);
  let submissions = 0;
  let entries = 0;
  let removed = 0;
  const marks = { rekeyed: 0, removed: 0 };
  for (const form of forms) {
    let pending: Entry[] = [];
    let stale: Entry[] = [];
    const flush = async () => {
      await putEmailIndexEntries(teamId, pending);
      await deleteEmailIndexEntries(teamId, stale);
      entries += pending.length;
      removed += stale.length;
      pending = [];
      stale = [];
    };
    for await (const { submission, hints } of submissionsOldestFirst(form.id)) {
      if (submission.isTest) continue;
      submissions += 1;
      const at = { formId: form.id, submissionId: submission.id };
      for (const address of addressesOf(submission.data, hints.replyTo)) {
        pending.push({ ...at, hash: emailHash(secret, teamId, address) });
      }
      const texts = [hints.replyTo ?? '', ...Object.values(submission.data)];
      for (const hash of staleHashes(secret, teamId, texts)) stale.push({ ...at, hash });
      if (pending.length + stale.length >= BATCH) await flush();
    }
    await flush();
    const waitlist = form.type === 'waitlist' ? await getForm(form.id) : undefined;
    if (waitlist) {
      const moved = await rekeySignupMarks(waitlist, secret);
      marks.rekeyed += moved.rekeyed;
      marks.removed += moved.removed;
    }
  }
  return { teamId, forms: forms.length, submissions, entries, removed, marks };
}

/**
 * A waitlist's signup marks an older version keyed by an unkeyed SHA-256
 * of the address (docs/privacy.md#the-signup-mark), moved to the keyed
 * hash for the same submission, which keeps that hash (so deleting it
 * takes the mark along); a mark whose submission is gone is removed.
 */
async function rekeySignupMarks(form: FormRecord, secret: string) {
  const counted = { rekeyed: 0, removed: 0 };
  for (const mark of await legacySignupMarks(form.id)) {
    const [stored] = await getStoredSubmissionsById(form.id, [mark.submissionId]);
    const address = stored && submitterAddress(stored.submission, form, stored.hints);
    const hash = address ? emailHash(secret, form.teamId, address) : undefined;
    if (hash) await keepSignupHash(form.id, mark.submissionId, hash);
    await rekeySignupMark(form.id, mark.sk, hash, mark.submissionId);
    if (hash) counted.rekeyed += 1;
    else counted.removed += 1;
  }
  return counted;
}
