import { deleteFilesOf } from '#aws/uploads.ts';
import { bulkDeleteInput } from '#domain/bulk-target.ts';
import { auditByCaller } from '#http/audit-trail.ts';
import { managementRoute } from '#http/management-route.ts';
import { getTeamForm } from '#store/forms.ts';
import { bulkContract, bulkEdit } from './bulk.ts';

/**
 * Deleted submissions stay counted in the month's usage: only the form's
 * counters move. Files go batch by batch, so a request cut short leaves none
 * of its deleted submissions' files behind.
 */
export const contract = bulkContract(bulkDeleteInput, 'Submissions deleted.');

export const handler = managementRoute(
  contract,
  async ({ input, caller, pathParameters, remainingMs, event }) => {
    const form = await getTeamForm(caller.team.teamId, pathParameters.id);
    const request = input.body();
    const response = await bulkEdit(
      form.id,
      request.target,
      () => 'delete',
      remainingMs,
      deleteFilesOf,
    );
    const { count } = JSON.parse(response.body) as { count?: number };
    if (count) {
      await auditByCaller(caller, event, 'submissions.deleted', form.id, {
        count,
        by: 'ids' in request.target ? 'ids' : `filter:${request.target.filter}`,
      });
    }
    return response;
  },
);
