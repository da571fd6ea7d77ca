import { bulkUpdateInput } from '#domain/bulk-target.ts';
import { changedFlags } from '#domain/submission-folders.ts';
import { managementRoute } from '#http/management-route.ts';
import { getTeamForm } from '#store/forms.ts';
import { bulkContract, bulkEdit } from './bulk.ts';

export const contract = bulkContract(bulkUpdateInput, 'Submissions whose flags changed.');

export const handler = managementRoute(
  contract,
  async ({ input, caller, pathParameters, remainingMs }) => {
    const form = await getTeamForm(caller.team.teamId, pathParameters.id);
    const request = input.body();
    return bulkEdit(
      form.id,
      request.target,
      (submission) => changedFlags(submission, request),
      remainingMs,
    );
  },
);
