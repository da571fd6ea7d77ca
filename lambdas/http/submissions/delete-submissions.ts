import { deleteFilesOf } from '#aws/uploads.ts';
import { bulkDeleteInput } from '#domain/bulk-target.ts';
import { actorOf, audit } from '#http/audit-trail.ts';
import { managementRoute } from '#http/management-route.ts';
import { parse } from '#http/parse.ts';
import { getTeamForm } from '#store/forms.ts';
import { bulkEdit } from './bulk.ts';

/**
 * Deleted submissions stay counted in the month's usage: only the form's
 * counters move. Files go batch by batch, so a request cut short leaves none
 * of its deleted submissions' files behind.
 */
export const handler = managementRoute(
  async ({ body, caller, pathParameters, remainingMs, event }) => {
    const form = await getTeamForm(caller.team.teamId, pathParameters.id);
    const input = parse(bulkDeleteInput, body);
    const response = await bulkEdit(
      form.id,
      input.target,
      () => 'delete',
      remainingMs,
      deleteFilesOf,
    );
    const { count } = JSON.parse(response.body) as { count?: number };
    if (count) {
      await audit({
        teamId: caller.team.teamId,
        actor: actorOf(caller),
        event,
        action: 'submissions.deleted',
        target: form.id,
        details: { count, by: 'ids' in input.target ? 'ids' : `filter:${input.target.filter}` },
      });
    }
    return response;
  },
);
