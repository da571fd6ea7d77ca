import { addressesOf, emailHash } from '#domain/email-index.ts';
import { type IndexedSubmission, putEmailIndexEntries } from '#store/email-index.ts';
import { listTeamForms } from '#store/forms.ts';
import { submissionsOldestFirst } from '#store/summary-buckets.ts';
import { getTeam } from '#store/teams.ts';

/** Entries written a BatchWrite round at a time. */
const BATCH = 100;

/**
 * `privacy reindex`: writes the email index entries of a team's submissions
 * (docs/privacy.md#how-a-person-is-found), for those stored before the index
 * existed. Reads each form's submissions once; the entries are the ones the
 * submit path writes (test submissions have none), so a second run writes
 * the same items and changes nothing. The table must be configured before
 * this module is imported. Undefined when there is no such team.
 */
export async function reindexTeam(teamId: string, secret: string) {
  if (!(await getTeam(teamId))) return undefined;
  const forms = await listTeamForms(teamId);
  let submissions = 0;
  let entries = 0;
  for (const form of forms) {
    let pending: (IndexedSubmission & { hash: string })[] = [];
    for await (const { submission, hints } of submissionsOldestFirst(form.id)) {
      if (submission.isTest) continue;
      submissions += 1;
      for (const address of addressesOf(submission.data, hints.replyTo)) {
        pending.push({
          formId: form.id,
          submissionId: submission.id,
          hash: emailHash(secret, teamId, address),
        });
      }
      if (pending.length >= BATCH) {
        await putEmailIndexEntries(teamId, pending);
        entries += pending.length;
        pending = [];
      }
    }
    await putEmailIndexEntries(teamId, pending);
    entries += pending.length;
  }
  return { teamId, forms: forms.length, submissions, entries };
}
