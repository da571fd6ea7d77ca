import { deleteFilesOf } from '#aws/uploads.ts';
import { bulkDeleteInput } from '#domain/bulk-target.ts';
import { managementRoute } from '#http/management-route.ts';
import { parse } from '#http/parse.ts';
import { getTeamForm } from '#store/forms.ts';
import { bulkEdit } from './bulk.ts';

/**
 * Deleted submissions stay counted in the month's usage: only the form's
 * counters move. Files go batch by batch, so a request cut short leaves none
 * of its deleted submissions' files behind.
 */
export const handler = managementRoute(async ({ body, caller, pathParameters, remainingMs }) => {
  const form = await getTeamForm(caller.team.teamId, pathParameters.id);
  const input = parse(bulkDeleteInput, body);
  return bulkEdit(form.id, input.target, () => 'delete', remainingMs, deleteFilesOf);
});
