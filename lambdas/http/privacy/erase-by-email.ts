import { deleteFilesOf } from '#aws/uploads.ts';
import { config } from '#config';
import { addressesOf, emailHash } from '#domain/email-index.ts';
import { erasureInput } from '#domain/privacy-input.ts';
import type { Submission } from '#domain/submission-model.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { json } from '#http/respond.ts';
import { requireOwner } from '#http/team/require-owner.ts';
import { deleteDeliveryRecords } from '#store/deliveries.ts';
import { deleteEmailIndexEntries } from '#store/email-index.ts';
import { getSubmissionsById } from '#store/folder-reads.ts';
import { editSubmissions, SUBMISSIONS_PER_TRANSACTION } from '#store/submission-changes.ts';
import { lookUpPerson, slices } from './person-submissions.ts';

/**
 * `POST /v1/privacy/erasures { email }` (owners; docs/privacy.md#erase-by-email):
 * deletes every submission of the team's forms that holds the address, with
 * its files, its webhook delivery and its email records, through the counted
 * bulk-delete transactions (folder counters stay exact). Idempotent: a second
 * call finds nothing left and answers a count of 0. The audit trail keeps the
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
  errors: ['owner_only'],
});

export const handler = managementRoute(contract, async ({ caller, input, event }) => {
  requireOwner(caller);
  const { email } = input.body();
  const teamId = caller.team.teamId;
  const person = await lookUpPerson(teamId, email);
  const forms: { id: string; name: string; count: number }[] = [];
  // The index entries to remove: this address's, and those of the other addresses the
  // erased submissions held (they would name submissions gone).
  const entries = person.entries.map((entry) => ({ ...entry, hash: person.hash }));
  const forgetOthers = (submissions: readonly Submission[]) => {
    for (const submission of submissions) {
      for (const address of addressesOf(submission.data)) {
        const hash = emailHash(config.keyedHashSecret, teamId, address);
        entries.push({ formId: submission.formId, submissionId: submission.id, hash });
      }
    }
  };
  for (const { form, submissionIds } of person.forms) {
    const outcome = await editSubmissions(
      form.id,
      (async function* () {
        for (const ids of slices(submissionIds, SUBMISSIONS_PER_TRANSACTION)) {
          yield await getSubmissionsById(form.id, ids);
        }
      })(),
      () => 'delete',
      {
        afterCommit: async (deleted) => {
          await deleteFilesOf(deleted);
          await deleteDeliveryRecords(
            form.id,
            deleted.map((submission) => submission.id),
          );
          forgetOthers(deleted);
        },
      },
    );
    if (outcome.count > 0) forms.push({ id: form.id, name: form.name, count: outcome.count });
  }
  await deleteEmailIndexEntries(teamId, entries);
  const count = forms.reduce((sum, form) => sum + form.count, 0);
  await auditByCaller(caller, event, 'privacy.erased', null, {
    emailHash: person.hash,
    count,
    forms: forms.length,
  });
  return json(200, { count, forms });
});
