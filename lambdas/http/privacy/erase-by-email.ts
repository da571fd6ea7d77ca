import { deleteFilesOf } from '#aws/uploads.ts';
import { config } from '#config';
import { addressesOf, emailHash } from '#domain/email-index.ts';
import { ERROR_CODES } from '#domain/errors.ts';
import { erasureInput } from '#domain/privacy-input.ts';
import type { Submission } from '#domain/submission-model.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { errorBody, json } from '#http/respond.ts';
import { requireOwner } from '#http/team/require-owner.ts';
import { deleteDeliveryRecords } from '#store/deliveries.ts';
import { deleteEmailIndexEntries } from '#store/email-index.ts';
import { getStoredSubmissionsById } from '#store/folder-reads.ts';
import { forgetRecordedLocation } from '#store/idempotency-records.ts';
import { editSubmissions, SUBMISSIONS_PER_TRANSACTION } from '#store/submission-changes.ts';
import { lookUpPerson, slices } from './person-submissions.ts';

/**
 * `POST /v1/privacy/erasures { email }` (owners; docs/privacy.md#erase-by-email):
 * deletes every submission of the team's forms that holds the address, with
 * its files, its webhook delivery and its email records, and the redirect
 * its Idempotency-Key record would replay, through the counted
 * bulk-delete transactions (folder counters stay exact). Idempotent: a second
 * call finds nothing left and answers a count of 0; one cut short by the time
 * limit answers 503 `incomplete` with the count so far, like a bulk DELETE,
 * and the same request again finishes. The audit trail keeps the
 * address's keyed hash, never the address.
 */
export const contract = defineContract({
  tag: 'Privacy',
  body: erasureInput,
  answers: [
    {
      status: 200,
      description: 'How many submissions were deleted, and in which forms.',
      body: 'Erasure',
    },
  ],
  errors: ['owner_only', 'incomplete'],
});

/** Stop starting batches this long before the function's own timeout. */
const SAFETY_MS = 3_000;

export const handler = managementRoute(contract, async ({ caller, input, event, remainingMs }) => {
  requireOwner(caller);
  const { email } = input.body();
  const teamId = caller.team.teamId;
  const deadline = Date.now() + remainingMs() - SAFETY_MS;
  const person = await lookUpPerson(teamId, email);
  const forms: { id: string; name: string; count: number }[] = [];
  // The index entries to remove: those of erased submissions (this address's and any other
  // address they held) and those naming submissions gone already. Entries of submissions a
  // cut-short request did not reach stay, so sending it again finds them.
  const entry = (formId: string, submissionId: string, hash = person.hash) => ({
    formId,
    submissionId,
    hash,
  });
  const reached = new Set(person.forms.map(({ form }) => form.id));
  const entries = person.entries
    .filter((found) => !reached.has(found.formId))
    .map((gone) => entry(gone.formId, gone.submissionId));
  // Each read submission's `_replyto` (an address it is indexed under too, whoever is erased)
  // and the hash of the Idempotency-Key it was stored under.
  const replyTos = new Map<string, string | undefined>();
  const keyHashes = new Map<string, string>();
  const forget = (submissions: readonly Submission[]) => {
    for (const submission of submissions) {
      entries.push(entry(submission.formId, submission.id));
      for (const address of addressesOf(submission.data, replyTos.get(submission.id))) {
        const hash = emailHash(config.keyedHashSecret, teamId, address);
        entries.push(entry(submission.formId, submission.id, hash));
      }
    }
  };
  let complete = true;
  for (const { form, submissionIds } of person.forms) {
    const outcome = await editSubmissions(
      form.id,
      (async function* () {
        for (const ids of slices(submissionIds, SUBMISSIONS_PER_TRANSACTION)) {
          const found = await getStoredSubmissionsById(form.id, ids);
          const present = new Set(found.map(({ submission }) => submission.id));
          for (const id of ids) if (!present.has(id)) entries.push(entry(form.id, id));
          for (const { submission, hints, idempotencyKeyHash } of found) {
            replyTos.set(submission.id, hints.replyTo);
            if (idempotencyKeyHash) keyHashes.set(submission.id, idempotencyKeyHash);
          }
          yield found.map(({ submission }) => submission);
        }
      })(),
      () => 'delete',
      {
        deadline,
        afterCommit: async (deleted) => {
          await deleteFilesOf(deleted);
          await deleteDeliveryRecords(
            form.id,
            deleted.map((submission) => submission.id),
          );
          await forgetRecordedLocations(form.id, deleted, keyHashes);
          forget(deleted);
        },
      },
    );
    if (outcome.count > 0) forms.push({ id: form.id, name: form.name, count: outcome.count });
    if (!outcome.complete) {
      complete = false;
      break;
    }
  }
  await deleteEmailIndexEntries(teamId, entries);
  const count = forms.reduce((sum, form) => sum + form.count, 0);
  await auditByCaller(caller, event, 'privacy.erased', null, {
    emailHash: person.hash,
    count,
    forms: forms.length,
  });
  if (complete) return json(200, { count, forms });
  return json(
    ERROR_CODES.incomplete,
    {
      ...errorBody(
        'incomplete',
        `Erased ${count} submissions before the time limit; send the same request again to finish`,
      ),
      count,
    },
    { 'retry-after': '1' },
  );
});

/** The redirect each erased submission's Idempotency-Key record holds, dropped (a few at a time). */
async function forgetRecordedLocations(
  formId: string,
  deleted: readonly Submission[],
  keyHashes: ReadonlyMap<string, string>,
): Promise<void> {
  const keyed = deleted.filter((submission) => keyHashes.has(submission.id));
  for (let i = 0; i < keyed.length; i += 10) {
    await Promise.all(
      keyed
        .slice(i, i + 10)
        .map((submission) =>
          forgetRecordedLocation(formId, keyHashes.get(submission.id)!, submission.id),
        ),
    );
  }
}
