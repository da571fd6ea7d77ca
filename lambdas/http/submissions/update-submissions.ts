import { bulkUpdateInput } from '#domain/bulk-target.ts';
import { changedFlags } from '#domain/submission-folders.ts';
import { managementRoute } from '#http/management-route.ts';
import { parse } from '#http/parse.ts';
import { getTeamForm } from '#store/forms.ts';
import { bulkEdit } from './bulk.ts';

export const handler = managementRoute(async ({ body, caller, pathParameters, remainingMs }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  const input = parse(bulkUpdateInput, body);
  return bulkEdit(
    form.id,
    input.target,
    (submission) => changedFlags(submission, input),
    remainingMs,
  );
});
