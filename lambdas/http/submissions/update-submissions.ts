import { bulkUpdateInput } from '#domain/bulk-target.ts';
import { changedFlags } from '#domain/submission-folders.ts';
import { defineContract } from '#http/contract.ts';
import { managementRoute } from '#http/management-route.ts';
import { getTeamForm } from '#store/forms.ts';
import { bulkEdit } from './bulk.ts';

export const contract = defineContract({
  tag: 'Submissions',
  body: bulkUpdateInput,
  answers: [{ status: 200, description: 'Submissions whose flags changed.', body: 'Count' }],
  errors: ['incomplete'],
});

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
