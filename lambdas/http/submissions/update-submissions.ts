import { bulkUpdateInput } from '#domain/bulk-target.ts';
import { isPending } from '#domain/confirmation-state.ts';
import { ServiceError } from '#domain/errors.ts';
import { changedFlags } from '#domain/submission-folders.ts';
import { managementRoute } from '#http/management-route.ts';
import { getTeamForm } from '#store/forms.ts';
import { bulkContract, bulkEdit } from './bulk.ts';

export const contract = bulkContract(bulkUpdateInput, 'Submissions whose flags changed.', [
  'submission_pending',
]);

/**
 * A submission waiting for its visitor's confirmation takes no triage, only
 * a DELETE (docs/submissions.md#folders-and-paging).
 */
const pendingRefused = () =>
  new ServiceError(
    'submission_pending',
    "A submission named is waiting for the visitor's confirmation: it can only be deleted",
  );

export const handler = managementRoute(
  contract,
  async ({ input, caller, pathParameters, remainingMs }) => {
    const form = await getTeamForm(caller.team.teamId, pathParameters.id);
    const request = input.body();
    return bulkEdit(
      form.id,
      request.target,
      (submission) => {
        if (isPending(submission)) throw pendingRefused();
        return changedFlags(submission, request);
      },
      remainingMs,
    );
  },
);
